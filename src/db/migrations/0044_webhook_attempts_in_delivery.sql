ALTER TABLE "webhook_deliveries" ADD COLUMN "attempts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- A delivery's row is written once, then updated with its first attempt, growing by it. Pages
-- filled to half leave room for that update on the row's own page (a heap-only update, which
-- writes no index entry); pages filled to the brim move nearly every such update to another
-- page, and write an entry in each of the table's three indexes.
ALTER TABLE "webhook_deliveries" SET (fillfactor = 50);
