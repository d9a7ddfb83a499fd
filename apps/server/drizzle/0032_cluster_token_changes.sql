-- A cluster's token is answered from memory (cluster-facing/token.ts) while the cluster is not
-- settled; a change to what decides that (its state, desired state or token), or its deletion, is
-- announced like the changes of 0007, so every server stops taking a stopped cluster's token at once.
CREATE TRIGGER clusters_token_changed AFTER UPDATE ON clusters FOR EACH ROW
  WHEN ((OLD.state, OLD.desired_state, OLD.token_hash) IS DISTINCT FROM (NEW.state, NEW.desired_state, NEW.token_hash))
  EXECUTE FUNCTION cumulus_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER clusters_deleted AFTER DELETE ON clusters
  FOR EACH ROW EXECUTE FUNCTION cumulus_notify_change('id');
