ALTER TABLE "connect_settings" ADD COLUMN "logo_png" "bytea";--> statement-breakpoint
ALTER TABLE "connect_settings" ADD COLUMN "logo_width" integer;--> statement-breakpoint
ALTER TABLE "connect_settings" ADD COLUMN "logo_height" integer;--> statement-breakpoint
ALTER TABLE "connect_settings" ADD COLUMN "logo_updated_at" timestamp with time zone;