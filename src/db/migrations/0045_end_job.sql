-- A job's end in the statement of its run's last change (src/jobs/job-run.ts), and the end of a
-- job graphile-worker completes (src/jobs/queue-pool.ts): one rule, kept here. PL/pgSQL, so that
-- graphile-worker's schema, which its own migrations make after these, is read only when called.
--
-- With `next_run_at`, the job is moved to its next run while one of `lockers` still locks it and
-- it still has its key. Else it is deleted while one of `lockers` locks it, or while nobody does
-- and it has no key: a keyed job unlocked under its run (its process taken for gone after a
-- database restart) may hold a change queued under its key since (add_job writes into the key's
-- waiting job), which deleting it would lose; it runs again, and every step reads its work's
-- state first. The next run is then queued only if no job that can still run has the key: one
-- that has it was unlocked under the run, or queued by a change made since the run's (newer than
-- the run's wish, which it must not undo: a cancellation, a reconnection). Called again after
-- its answer was lost, it finds the job moved or gone, and does nothing more.
CREATE FUNCTION "switchboard_end_job"(
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
     WHERE j.key = next_key AND (j.locked_at IS NOT NULL OR j.attempts < j.max_attempts)
  ) THEN
    PERFORM graphile_worker.add_job(next_task, payload => next_payload, run_at => next_run_at,
      max_attempts => next_max_attempts, job_key => next_key, priority => next_priority);
  END IF;
END
$$;
