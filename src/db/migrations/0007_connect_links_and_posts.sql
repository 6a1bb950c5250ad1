CREATE TABLE "connect_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"link_id" text NOT NULL,
	"platform" text NOT NULL,
	"state_hash" text NOT NULL,
	"grant_sealed" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "connect_attempts_state_hash_unique" UNIQUE("state_hash")
);
--> statement-breakpoint
CREATE TABLE "connect_links" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"redirect_url" text NOT NULL,
	"state" text,
	"platforms" text[],
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"account_ids" text[],
	CONSTRAINT "connect_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "connect_redirect_origins" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connect_settings" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"brand_name" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "post_targets" (
	"id" text PRIMARY KEY NOT NULL,
	"post_id" text NOT NULL,
	"account_id" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "posts" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "access_token_sealed" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "connect_attempts" ADD CONSTRAINT "connect_attempts_link_id_connect_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."connect_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connect_links" ADD CONSTRAINT "connect_links_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connect_links" ADD CONSTRAINT "connect_links_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connect_redirect_origins" ADD CONSTRAINT "connect_redirect_origins_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connect_settings" ADD CONSTRAINT "connect_settings_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_targets" ADD CONSTRAINT "post_targets_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_targets" ADD CONSTRAINT "post_targets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connect_attempts_link_idx" ON "connect_attempts" USING btree ("link_id");--> statement-breakpoint
CREATE INDEX "connect_links_expiry_idx" ON "connect_links" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "connect_redirect_origins_owner_origin_key" ON "connect_redirect_origins" USING btree ("owner_id","origin");--> statement-breakpoint
CREATE INDEX "post_targets_waiting_idx" ON "post_targets" USING btree ("account_id") WHERE "post_targets"."status" in ('scheduled', 'publishing');--> statement-breakpoint
CREATE INDEX "posts_profile_idx" ON "posts" USING btree ("owner_id","profile_id","id");