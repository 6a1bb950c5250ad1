CREATE SCHEMA "sandbox";
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"platform" text NOT NULL,
	"platform_user_id" text NOT NULL,
	"username" text,
	"display_name" text,
	"avatar_url" text,
	"status" text NOT NULL,
	"scopes" text[] NOT NULL,
	"access_token_sealed" text NOT NULL,
	"token_expires_at" timestamp with time zone,
	"token_issued_at" timestamp with time zone NOT NULL,
	"refresh_token_sealed" text,
	"refresh_expires_at" timestamp with time zone,
	"refresh_retry_at" timestamp with time zone,
	"refresh_failures" integer DEFAULT 0 NOT NULL,
	"last_refresh_error" text,
	"connected_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"kind" text DEFAULT 'user' NOT NULL,
	"parent_id" text,
	"username" text NOT NULL,
	"name" text NOT NULL,
	"avatar_url" text NOT NULL,
	"followers_count" integer NOT NULL,
	"instagram_business_account_id" text,
	"throttled_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"action" text NOT NULL,
	"target_id" text NOT NULL,
	"detail" jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."codes" (
	"code" text PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"client_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"account_id" text NOT NULL,
	"scopes" text[] NOT NULL,
	"page_ids" text[] DEFAULT '{}' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox"."comments" (
	"id" text PRIMARY KEY NOT NULL,
	"post_id" text NOT NULL,
	"parent_id" text,
	"author_id" text NOT NULL,
	"author_username" text NOT NULL,
	"text" text NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."containers" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"request" jsonb NOT NULL,
	"failure" text,
	"published_post_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."faults" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"trigger" text NOT NULL,
	"error" text NOT NULL,
	"status" integer,
	"body" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."insights" (
	"account_id" text NOT NULL,
	"post_id" text DEFAULT '' NOT NULL,
	"metric" text NOT NULL,
	"day" date NOT NULL,
	"value" bigint,
	CONSTRAINT "insights_account_id_post_id_metric_day_pk" PRIMARY KEY("account_id","post_id","metric","day")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."posts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"caption" text DEFAULT '' NOT NULL,
	"media_type" text NOT NULL,
	"media_url" text,
	"permalink" text NOT NULL,
	"via_api" boolean DEFAULT false NOT NULL,
	"reply_to_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."settings" (
	"name" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."tokens" (
	"token" text PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"client_id" text NOT NULL,
	"scopes" text[] NOT NULL,
	"page_ids" text[] DEFAULT '{}' NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_owner_platform_user_key" ON "accounts" USING btree ("owner_id","platform","platform_user_id");--> statement-breakpoint
CREATE INDEX "accounts_profile_idx" ON "accounts" USING btree ("owner_id","profile_id","id");--> statement-breakpoint
CREATE INDEX "accounts_token_expiry_idx" ON "accounts" USING btree ("token_expires_at") WHERE "accounts"."status" = 'connected';--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_accounts_platform_username_key" ON "sandbox"."accounts" USING btree ("platform","username");--> statement-breakpoint
CREATE INDEX "sandbox_activity_account_idx" ON "sandbox"."activity" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "sandbox_comments_post_idx" ON "sandbox"."comments" USING btree ("post_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_posts_account_idx" ON "sandbox"."posts" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_tokens_account_idx" ON "sandbox"."tokens" USING btree ("account_id");