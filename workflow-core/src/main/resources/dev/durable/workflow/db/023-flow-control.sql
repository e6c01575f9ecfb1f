--liquibase formatted sql

--changeset durable:023-flow-control
-- Flow control, second round: fair admission across partition keys (optionally weighted per key),
-- what a start beyond the partition concurrency or the rate window does, and how long a start may
-- wait. Written by the nodes that declare the queue, read by the admission rounds and the starts.
ALTER TABLE ${schema}.queue ADD COLUMN fair boolean NOT NULL DEFAULT false;
ALTER TABLE ${schema}.queue ADD COLUMN partition_weights jsonb NOT NULL DEFAULT '{}';
ALTER TABLE ${schema}.queue ADD COLUMN partition_excess text NOT NULL DEFAULT 'QUEUE';
ALTER TABLE ${schema}.queue ADD COLUMN rate_excess text NOT NULL DEFAULT 'QUEUE';
ALTER TABLE ${schema}.queue ADD COLUMN admission_timeout_ms bigint;

-- When a newer start of the same partition key asked the run to cancel (CANCEL_OLDEST_RUNNING):
-- such a run no longer counts against the key's limit for the next starts' decisions.
ALTER TABLE ${schema}.queued_run ADD COLUMN cancel_requested_at timestamptz;

-- fair admission ranks each key's waiting runs in its own order: read per key, already sorted
CREATE INDEX queued_run_fair ON ${schema}.queued_run (namespace, queue, partition_key, priority, enqueued_at, run_id)
    WHERE state = 'WAITING';
-- the admission timeout: the runs that waited longest, whatever their priority
CREATE INDEX queued_run_waiting_since ON ${schema}.queued_run (namespace, queue, enqueued_at) WHERE state = 'WAITING';
-- a start's excess decision counts the open runs of its partition key
CREATE INDEX queued_run_partition ON ${schema}.queued_run (namespace, queue, partition_key)
    WHERE partition_key IS NOT NULL;
-- fair admission of task-queue activities, per key in claim order
CREATE INDEX activity_fair ON ${schema}.activity (namespace, task_queue, partition_key, priority, next_attempt_at, run_id, seq)
    WHERE state = 'SCHEDULED' AND task_queue IS NOT NULL;

--changeset durable:023-fair-passes
-- Fair admission across rounds (stride scheduling): each key's pass grows by 1/weight per item
-- admitted, the queue's virtual time follows the items served; a key's next item ranks at
-- greatest(its pass, the virtual time) + its place among the key's waiting items / weight. A
-- key that was idle starts at the virtual time (no credit for idleness); a row whose pass fell
-- behind the virtual time says nothing more and is removed.
ALTER TABLE ${schema}.queue ADD COLUMN virtual_time double precision NOT NULL DEFAULT 0;
CREATE TABLE ${schema}.queue_key_pass (
    namespace     text NOT NULL,
    queue         text NOT NULL,
    partition_key text NOT NULL,
    pass          double precision NOT NULL,
    PRIMARY KEY (namespace, queue, partition_key)
);
