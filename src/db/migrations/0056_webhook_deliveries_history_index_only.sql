-- A delivery's time alone is no longer indexed: the 30 days' clean-up finds old deliveries endpoint
-- by endpoint through the history's index (endpoint, time, id), so each delivery written (and each
-- update of it that is not heap-only) writes one index entry fewer.
DROP INDEX IF EXISTS "webhook_deliveries_created_idx";
