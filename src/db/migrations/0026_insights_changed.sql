-- API processes keep rendered insights answers (src/modules/insights/answers.ts) and forget an
-- account's when told it changed, whichever code changed it: its stored figures or last refresh
-- (the insights channel), or what decides who sees it and what it may read (the accounts
-- channel). The payload is the account's id; an empty one means every account (TRUNCATE).
-- PostgreSQL folds identical notifications of one transaction into one.
CREATE FUNCTION switchboard_notify_account_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(TG_ARGV[0], CASE WHEN TG_OP = 'DELETE' THEN OLD.account_id ELSE NEW.account_id END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION switchboard_notify_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(TG_ARGV[0], CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION switchboard_notify_every_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(TG_ARGV[0], '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER account_insight_series_changed AFTER INSERT OR UPDATE OR DELETE ON account_insight_series
  FOR EACH ROW EXECUTE FUNCTION switchboard_notify_account_row('switchboard_insights_changed');
--> statement-breakpoint
CREATE TRIGGER account_insight_series_truncated AFTER TRUNCATE ON account_insight_series
  FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_every_account('switchboard_insights_changed');
--> statement-breakpoint
CREATE TRIGGER insight_sync_state_added AFTER INSERT OR DELETE ON insight_sync_state
  FOR EACH ROW EXECUTE FUNCTION switchboard_notify_account_row('switchboard_insights_changed');
--> statement-breakpoint
-- An answer shows the last refresh only; the other columns change every minute or so.
CREATE TRIGGER insight_sync_state_refreshed AFTER UPDATE ON insight_sync_state
  FOR EACH ROW WHEN (OLD.refreshed_at IS DISTINCT FROM NEW.refreshed_at)
  EXECUTE FUNCTION switchboard_notify_account_row('switchboard_insights_changed');
--> statement-breakpoint
CREATE TRIGGER insight_sync_state_truncated AFTER TRUNCATE ON insight_sync_state
  FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_every_account('switchboard_insights_changed');
--> statement-breakpoint
-- Who sees an account and what it may read; a token refresh or a status note changes neither.
CREATE TRIGGER accounts_access_changed AFTER UPDATE ON accounts
  FOR EACH ROW WHEN (
    OLD.owner_id IS DISTINCT FROM NEW.owner_id
    OR OLD.profile_id IS DISTINCT FROM NEW.profile_id
    OR OLD.scopes IS DISTINCT FROM NEW.scopes
    OR OLD.platform IS DISTINCT FROM NEW.platform
  )
  EXECUTE FUNCTION switchboard_notify_account('switchboard_account_changed');
--> statement-breakpoint
CREATE TRIGGER accounts_deleted AFTER DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION switchboard_notify_account('switchboard_account_changed');
--> statement-breakpoint
CREATE TRIGGER accounts_truncated AFTER TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_every_account('switchboard_account_changed');
