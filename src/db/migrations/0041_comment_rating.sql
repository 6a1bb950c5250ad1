ALTER TABLE "comments" ADD COLUMN "rating" integer;--> statement-breakpoint
ALTER TABLE "sandbox"."comments" ADD COLUMN "rating" integer;