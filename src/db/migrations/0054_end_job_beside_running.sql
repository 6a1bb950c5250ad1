-- A run's end with a next run is dropped only in favour of a job of the key that waits to run,
-- not of one another run holds: that run may have read its work's state before this run's
-- change, and its own end, made by that stale reading, need not queue anything (two runs of one
-- publishing step: the later one read the target claimed, the earlier one then gave the claim
-- back and waits for a retry; with nothing queued, the target would keep no job). add_job takes
-- the key from the running job, which stays its run's, and queues the next run beside it. A job
-- waiting under the key (a change made since the run's: a cancellation, a reconnection) still
-- stands, as before; see 0045_end_job.sql for the rest of the rule.
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
       SET run_at = next_run_at, locked_by = NULL, locked_at = NULL, attempts = 0, last_error = NULL,
           revision = j.revision + 1, updated_at = now()
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
