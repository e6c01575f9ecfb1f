--liquibase formatted sql

--changeset durable:010-activity-task-queues
-- Activities on a task queue live in this table from the commit that schedules them to the
-- transaction that hands their outcome to the run's inbox. state: SCHEDULED (waiting for a claim,
-- due at next_attempt_at), STARTED (claimed by claimed_by at claimed_incarnation, since
-- started_at), ASYNC (the attempt's method returned without completing it: its outcome comes
-- through the completion client). token names the current attempt: the claim sets it, an outcome
-- or a retry clears it, so a late or second outcome of an attempt finds nothing to change.
-- Inline activities keep state SCHEDULED and task_queue NULL unless they complete asynchronously.
-- namespace and workflow_id are set on rows of task-queue activities (a worker reads them with no
-- join); priority and partition_key order and limit claims of a queue-limited task queue.
ALTER TABLE ${schema}.activity ADD COLUMN namespace text;
ALTER TABLE ${schema}.activity ADD COLUMN workflow_id text;
ALTER TABLE ${schema}.activity ADD COLUMN state text NOT NULL DEFAULT 'SCHEDULED';
ALTER TABLE ${schema}.activity ADD COLUMN token uuid;
ALTER TABLE ${schema}.activity ADD COLUMN claimed_by uuid;
ALTER TABLE ${schema}.activity ADD COLUMN claimed_incarnation bigint;
ALTER TABLE ${schema}.activity ADD COLUMN started_at timestamptz;
ALTER TABLE ${schema}.activity ADD COLUMN priority int NOT NULL DEFAULT 0;
ALTER TABLE ${schema}.activity ADD COLUMN partition_key text;
-- the timeouts of a task-queue activity, so that any node can enforce them with one query
ALTER TABLE ${schema}.activity ADD COLUMN schedule_to_start_ms bigint;
ALTER TABLE ${schema}.activity ADD COLUMN start_to_close_ms bigint;
ALTER TABLE ${schema}.activity ADD COLUMN heartbeat_timeout_ms bigint;
ALTER TABLE ${schema}.activity ADD COLUMN close_deadline timestamptz;
-- claims: the due attempts of the queues a node serves, most urgent first
CREATE INDEX activity_claimable ON ${schema}.activity (task_queue, priority DESC, next_attempt_at)
    WHERE task_queue IS NOT NULL AND state = 'SCHEDULED';
-- the sweep (schedule-to-start, heartbeat and start-to-close timeouts, dead workers) and the
-- counts of a limited queue read only the attempts that are waiting or running on a queue
CREATE INDEX activity_on_queue ON ${schema}.activity (task_queue, state) WHERE task_queue IS NOT NULL;
