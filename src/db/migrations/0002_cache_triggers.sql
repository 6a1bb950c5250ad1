-- Every process caches what keys and profiles resolve to (src/http/read-cache.ts). A
-- committed change to either table tells them all to forget, whichever code made it.
-- PostgreSQL folds identical notifications of one transaction into one.
CREATE FUNCTION switchboard_notify_cache_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('switchboard_cache_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER profiles_cache_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON profiles
  FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_cache_changed();
--> statement-breakpoint
-- New keys need no notice: keys that are not found are never cached.
CREATE TRIGGER api_keys_cache_changed AFTER UPDATE OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_cache_changed();
