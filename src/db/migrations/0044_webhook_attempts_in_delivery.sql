ALTER TABLE "webhook_deliveries" ADD COLUMN "attempts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- A delivery's row is written once, then updated with each attempt, growing by it. Pages filled
-- to half leave room for that update on the row's own page (a heap-only update, which writes no
-- index entry); pages filled to the brim move nearly every such update to another page, and
-- write an entry in each of the table's three indexes.
ALTER TABLE "webhook_deliveries" SET (fillfactor = 50);--> statement-breakpoint
-- Kept by the database, not by the code, so that an attempt recorded by the release before this
-- one (still running during a rolling upgrade, or again after a rollback) is in its delivery's
-- attempts too. This release writes no attempt rows.
CREATE FUNCTION "webhook_attempts_copy_to_delivery"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "webhook_deliveries" SET "attempts" = "attempts" || jsonb_build_array(jsonb_build_object(
    'attempted_at', NEW."attempted_at", 'duration_ms', NEW."duration_ms", 'status_code', NEW."status_code",
    'error', NEW."error", 'response_body', NEW."response_body", 'succeeded', NEW."succeeded"))
  WHERE "id" = NEW."delivery_id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_attempts_copy_to_delivery" AFTER INSERT ON "webhook_attempts"
  FOR EACH ROW EXECUTE FUNCTION "webhook_attempts_copy_to_delivery"();--> statement-breakpoint
UPDATE "webhook_deliveries" d SET "attempts" = a."attempts"
FROM (
  SELECT "delivery_id", jsonb_agg(jsonb_build_object(
    'attempted_at', "attempted_at", 'duration_ms', "duration_ms", 'status_code', "status_code",
    'error', "error", 'response_body', "response_body", 'succeeded', "succeeded") ORDER BY "attempted_at", "id") AS "attempts"
  FROM "webhook_attempts" GROUP BY "delivery_id"
) a
WHERE d."id" = a."delivery_id";
