-- Unlogged (no WAL): the rate limit's counts are written on every request, and a count lost
-- in a crash only lets a caller start its window afresh.
CREATE UNLOGGED TABLE "rate_limit_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"window_ms" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limit_windows_started_idx" ON "rate_limit_windows" USING btree ("started_at");