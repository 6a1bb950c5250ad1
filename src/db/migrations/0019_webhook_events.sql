-- The webhooks module keeps its own copy of each event it delivers (type, profile, the envelope's
-- bytes) instead of reading the events module's table: the copies of the events that existing
-- deliveries send are taken from it once, here, before the deliveries reference them.
CREATE TABLE "webhook_events" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"profile_id" text,
	"type" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
INSERT INTO "webhook_events" ("event_id", "owner_id", "profile_id", "type", "body", "created_at")
SELECT e."id", e."owner_id", e."profile_id", e."type", e."body", e."created_at" FROM "events" e
WHERE EXISTS (SELECT 1 FROM "webhook_deliveries" d WHERE d."event_id" = e."id");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_id_events_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("event_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");