CREATE TABLE "node_activity" (
	"node_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"minutes" bigint NOT NULL,
	CONSTRAINT "node_activity_node_id_hour_pk" PRIMARY KEY("node_id","hour")
);
--> statement-breakpoint
ALTER TABLE "node_activity" ADD CONSTRAINT "node_activity_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "node_activity_hour_index" ON "node_activity" USING btree ("hour");--> statement-breakpoint
-- Change notifications for live screens: after every change a user could see on a job or a node,
-- NOTIFY fabric_changes with {kind, id, users}, delivered at commit to every server process, which
-- forwards it to those users' event streams. Lease extensions and bare heartbeats are left out
-- (a heartbeat is announced at most once a minute) so that a busy network stays quiet.
CREATE FUNCTION fabric_notify_job_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  providers uuid[];
BEGIN
  IF TG_OP = 'UPDATE'
    AND (to_jsonb(OLD) - 'lease_expires_at' - 'updated_at')
      = (to_jsonb(NEW) - 'lease_expires_at' - 'updated_at') THEN
    RETURN NULL;
  END IF;
  SELECT coalesce(array_agg(DISTINCT owner_id), '{}') INTO providers
    FROM nodes
    WHERE id = NEW.assigned_node_id
      OR (TG_OP = 'UPDATE' AND id = OLD.assigned_node_id);
  PERFORM pg_notify('fabric_changes', json_build_object(
    'kind', 'job', 'id', NEW.id, 'users', array_prepend(NEW.owner_id, providers))::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER jobs_notify_change AFTER INSERT OR UPDATE ON jobs
  FOR EACH ROW EXECUTE FUNCTION fabric_notify_job_change();
--> statement-breakpoint
CREATE FUNCTION fabric_notify_node_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND (to_jsonb(OLD) - 'last_heartbeat_at' - 'updated_at')
      = (to_jsonb(NEW) - 'last_heartbeat_at' - 'updated_at')
    AND date_trunc('minute', OLD.last_heartbeat_at) IS NOT DISTINCT FROM date_trunc('minute', NEW.last_heartbeat_at) THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('fabric_changes', json_build_object(
    'kind', 'node', 'id', NEW.id, 'users', json_build_array(NEW.owner_id))::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER nodes_notify_change AFTER INSERT OR UPDATE ON nodes
  FOR EACH ROW EXECUTE FUNCTION fabric_notify_node_change();
