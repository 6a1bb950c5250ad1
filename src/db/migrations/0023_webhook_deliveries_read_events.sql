-- The webhooks module reads the event a delivery sends from the events module's table again
-- (eventEnvelopes) instead of keeping a copy of it. A delivery keeps the event's profile, by
-- which a profile's deletion finds it; existing deliveries take it from their copy, before the
-- copies go.
ALTER TABLE "webhook_deliveries" ADD COLUMN "event_profile_id" text;--> statement-breakpoint
UPDATE "webhook_deliveries" d SET "event_profile_id" = c."profile_id"
FROM "webhook_events" c WHERE c."event_id" = d."event_id";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_id_webhook_events_event_id_fk";--> statement-breakpoint
DROP INDEX "webhook_deliveries_event_idx";--> statement-breakpoint
DROP TABLE "webhook_events";
