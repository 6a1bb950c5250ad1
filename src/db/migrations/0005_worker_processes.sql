CREATE TABLE "worker_processes" (
	"id" text PRIMARY KEY NOT NULL,
	"worker_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"started_at" timestamp with time zone NOT NULL
);
