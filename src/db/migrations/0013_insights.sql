CREATE TABLE "account_insight_series" (
	"account_id" text NOT NULL,
	"metric" text NOT NULL,
	"first_day" date NOT NULL,
	"values" bigint[] NOT NULL,
	CONSTRAINT "account_insight_series_account_id_metric_pk" PRIMARY KEY("account_id","metric")
);
--> statement-breakpoint
CREATE TABLE "insight_manual_syncs" (
	"scope_key" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"profile_id" text,
	"requested_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insight_sync_state" (
	"account_id" text PRIMARY KEY NOT NULL,
	"next_refresh_at" timestamp with time zone NOT NULL,
	"refreshed_at" timestamp with time zone,
	"history_from" date NOT NULL,
	"history_cursor" date,
	"read_to" date NOT NULL,
	"gap_from" date,
	"gap_to" date,
	"history_next_at" timestamp with time zone NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "post_insights" (
	"post_id" text NOT NULL,
	"account_id" text NOT NULL,
	"figures" jsonb NOT NULL,
	"synced_at" timestamp with time zone NOT NULL,
	CONSTRAINT "post_insights_post_id_account_id_pk" PRIMARY KEY("post_id","account_id")
);
--> statement-breakpoint
ALTER TABLE "account_insight_series" ADD CONSTRAINT "account_insight_series_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_manual_syncs" ADD CONSTRAINT "insight_manual_syncs_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_sync_state" ADD CONSTRAINT "insight_sync_state_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_insights" ADD CONSTRAINT "post_insights_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_insights" ADD CONSTRAINT "post_insights_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_insights_account_idx" ON "post_insights" USING btree ("account_id");