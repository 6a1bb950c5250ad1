ALTER TABLE "insight_sync_state" ADD COLUMN "history" text DEFAULT 'reading' NOT NULL;--> statement-breakpoint
-- Accounts whose gap and history are all read are `read`; the others keep reading.
UPDATE "insight_sync_state" SET "history" = 'read' WHERE "history_cursor" IS NULL AND "gap_to" IS NULL;
