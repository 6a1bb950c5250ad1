CREATE TABLE "comment_replies" (
	"id" text PRIMARY KEY NOT NULL,
	"comment_id" text NOT NULL,
	"text" text NOT NULL,
	"status" text NOT NULL,
	"container_id" text,
	"polls" integer DEFAULT 0 NOT NULL,
	"platform_comment_id" text,
	"sent_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comment_sync_state" (
	"account_id" text PRIMARY KEY NOT NULL,
	"next_poll_at" timestamp with time zone NOT NULL,
	"last_polled_at" timestamp with time zone,
	"last_manual_sync_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"account_id" text NOT NULL,
	"post_id" text NOT NULL,
	"platform" text NOT NULL,
	"platform_comment_id" text NOT NULL,
	"platform_post_id" text NOT NULL,
	"platform_parent_id" text,
	"author_id" text,
	"author_username" text,
	"text" text NOT NULL,
	"commented_at" timestamp with time zone NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"reply_status" text DEFAULT 'unreplied' NOT NULL,
	"by_account" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "source" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "platform_key" text;--> statement-breakpoint
ALTER TABLE "comment_replies" ADD CONSTRAINT "comment_replies_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_sync_state" ADD CONSTRAINT "comment_sync_state_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comment_replies_comment_idx" ON "comment_replies" USING btree ("comment_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "comments_account_platform_comment_key" ON "comments" USING btree ("account_id","platform_comment_id");--> statement-breakpoint
CREATE INDEX "comments_owner_inbox_idx" ON "comments" USING btree ("owner_id","commented_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "comments"."by_account";--> statement-breakpoint
CREATE INDEX "comments_profile_inbox_idx" ON "comments" USING btree ("owner_id","profile_id","commented_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "comments"."by_account";--> statement-breakpoint
CREATE INDEX "comments_account_inbox_idx" ON "comments" USING btree ("account_id","commented_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "comments"."by_account";--> statement-breakpoint
CREATE INDEX "comments_account_status_idx" ON "comments" USING btree ("account_id","reply_status","commented_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "comments"."by_account";--> statement-breakpoint
CREATE INDEX "comments_owner_hidden_idx" ON "comments" USING btree ("owner_id","commented_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "comments"."hidden" and not "comments"."by_account";--> statement-breakpoint
CREATE INDEX "comments_post_idx" ON "comments" USING btree ("post_id","commented_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "post_targets_platform_post_idx" ON "post_targets" USING btree ("account_id","platform_post_id") WHERE "post_targets"."platform_post_id" is not null;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_platform_key_key" UNIQUE("platform_key");