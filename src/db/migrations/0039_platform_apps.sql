CREATE TABLE "platform_apps" (
	"owner_id" text NOT NULL,
	"platform" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_sealed" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "platform_apps_owner_id_platform_pk" PRIMARY KEY("owner_id","platform")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "owner_app_client_id" text;--> statement-breakpoint
ALTER TABLE "platform_apps" ADD CONSTRAINT "platform_apps_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;