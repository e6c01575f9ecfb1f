--liquibase formatted sql

--changeset durable:018-node-namespace
-- The namespace a node serves. Nodes of several namespaces may share one schema: a node judges
-- "does a live node serve this type" (starts, the dynamic workflow's claim, the test kit's
-- quiescence) and lists nodes only among those of its own namespace. NULL for the rows of nodes
-- registered before this column existed (they register anew, with it, at their next start).
ALTER TABLE ${schema}.node ADD COLUMN namespace text;

--changeset durable:018-namespace-claim-indexes
-- Every claim, poll and sweep reads one namespace: the claim indexes lead with it, so that a busy
-- namespace's rows cost the claims of the others nothing. The namespace of a row never changes, so
-- these indexes cost the hot rows' HOT updates no more than before.
DROP INDEX ${schema}.workflow_run_wake;
DROP INDEX ${schema}.workflow_run_pending;
CREATE INDEX workflow_run_wake ON ${schema}.workflow_run (namespace, next_wake_at) WHERE status = 'RUNNING';
CREATE INDEX workflow_run_pending ON ${schema}.workflow_run (namespace, owner_node) WHERE status = 'RUNNING' AND (pending_input OR has_activities);
DROP INDEX ${schema}.activity_claimable;
DROP INDEX ${schema}.activity_on_queue;
CREATE INDEX activity_claimable ON ${schema}.activity (namespace, task_queue, priority DESC, next_attempt_at)
    WHERE task_queue IS NOT NULL AND state = 'SCHEDULED';
CREATE INDEX activity_on_queue ON ${schema}.activity (namespace, task_queue, state) WHERE task_queue IS NOT NULL;
-- retention deletes the closed runs of its own namespace (each namespace's nodes have their own
-- retention), and a closedBetween list reads one namespace's time range
DROP INDEX ${schema}.visibility_closed;
CREATE INDEX visibility_closed ON ${schema}.visibility (namespace, close_time) WHERE close_time IS NOT NULL;
DROP INDEX ${schema}.schedule_due;
CREATE INDEX schedule_due ON ${schema}.schedule (namespace, next_run_at) WHERE NOT paused;
