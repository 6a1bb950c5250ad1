-- A run's end with a next run gives that run its payload (next_payload) also where it moves the
-- run's own job, as it always did where it queues a new one: a run may tell the next what it
-- found (a publishing target already started, so the next run reads it without the parts that
-- may start it, whichever worker takes it). Otherwise as 0054_end_job_beside_running.sql.
CREATE OR REPLACE FUNCTION "switchboard_end_job"(
  "ended_job" bigint,
  "lockers" text[],
  "next_run_at" timestamptz DEFAULT NULL,
  "next_key" text DEFAULT NULL,
  "next_task" text DEFAULT NULL,
  "next_payload" json DEFAULT NULL,
  "next_max_attempts" int DEFAULT NULL,
  "next_priority" int DEFAULT NULL
) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF next_run_at IS NOT NULL THEN
    UPDATE graphile_worker._private_jobs AS j
       SET run_at = next_run_at, payload = coalesce(next_payload, j.payload), locked_by = NULL, locked_at = NULL,
           attempts = 0, last_error = NULL, revision = j.revision + 1, updated_at = now()
     WHERE j.id = ended_job AND j.locked_by = ANY(lockers) AND j.key = next_key;
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  DELETE FROM graphile_worker._private_jobs AS j
   WHERE j.id = ended_job AND (j.locked_by = ANY(lockers) OR (j.locked_by IS NULL AND j.key IS NULL));
  IF next_run_at IS NOT NULL AND NOT EXISTS (
    SELECT FROM graphile_worker._private_jobs AS j
     WHERE j.key = next_key AND j.locked_at IS NULL AND j.attempts < j.max_attempts
  ) THEN
    PERFORM graphile_worker.add_job(next_task, payload => next_payload, run_at => next_run_at,
      max_attempts => next_max_attempts, job_key => next_key, priority => next_priority);
  END IF;
END
$$;
