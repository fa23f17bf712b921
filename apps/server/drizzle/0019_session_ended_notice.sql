-- Every ended session is announced to every server instance in the transaction that ends it,
-- whichever path deleted it (sign-out, revocation, suspension, a deleted account), so that no
-- instance goes on trusting its signed cookie cache (http/session.ts, cache/invalidation.ts).
CREATE FUNCTION chorus_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(
    'chorus_invalidate',
    json_build_object('topic', 'sessions', 'key', OLD.id, 'from', 'database')::text
  );
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_ended_notice AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION chorus_session_ended();
