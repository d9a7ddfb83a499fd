-- Every committed change to what authenticates a request or is shown by user/me is announced on
-- the channel `cumulus_changes` as `<table>:<id>`, so each server's in-memory caches drop it at
-- once, whoever wrote it (another replica, a migration, psql). Writes of last_used_at alone are
-- not announced: they change nothing a cache answers.
CREATE FUNCTION cumulus_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(
    'cumulus_changes',
    TG_TABLE_NAME || ':' || (to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END) ->> TG_ARGV[0])
  );
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION cumulus_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER api_tokens_changed AFTER UPDATE ON api_tokens FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
  EXECUTE FUNCTION cumulus_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER api_tokens_deleted AFTER DELETE ON api_tokens
  FOR EACH ROW EXECUTE FUNCTION cumulus_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER auth_sessions_changed AFTER UPDATE ON auth_sessions FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
  EXECUTE FUNCTION cumulus_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER auth_sessions_deleted AFTER DELETE ON auth_sessions
  FOR EACH ROW EXECUTE FUNCTION cumulus_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER user_profiles_changed AFTER INSERT OR UPDATE OR DELETE ON user_profiles
  FOR EACH ROW EXECUTE FUNCTION cumulus_notify_change('user_id');
--> statement-breakpoint
CREATE TRIGGER accounts_changed AFTER UPDATE OR DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION cumulus_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER organizations_changed AFTER UPDATE OR DELETE ON organizations
  FOR EACH ROW EXECUTE FUNCTION cumulus_notify_change('id');
