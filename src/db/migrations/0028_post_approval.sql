CREATE TABLE "post_approval_links" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"post_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"decision" text,
	"comment" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "post_approval_links_token_hash_key" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval_status" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval_link_id" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval_comment" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "post_approval_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "post_approval_links" ADD CONSTRAINT "post_approval_links_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_approval_links" ADD CONSTRAINT "post_approval_links_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_approval_links" ADD CONSTRAINT "post_approval_links_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_approval_links_post_idx" ON "post_approval_links" USING btree ("post_id","id");