-- A sign-in ends when its refresh-token family is revoked (sign-out, refresh-token reuse, a
-- password change or reset, account closure). Announce it on fabric_changes so every server
-- process closes that session's open event streams at once rather than when the access token
-- expires. A family revokes many rows in one statement; NOTIFY folds identical payloads of one
-- transaction into one.
CREATE FUNCTION fabric_notify_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fabric_changes', json_build_object(
    'kind', 'session', 'id', NEW.family_id, 'users', json_build_array(NEW.user_id))::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_notify_session_ended AFTER UPDATE OF revoked_at ON refresh_tokens
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION fabric_notify_session_ended();
