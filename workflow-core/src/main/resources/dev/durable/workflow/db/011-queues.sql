--liquibase formatted sql

--changeset durable:011-queues
-- A flow-control queue: its limits, written by the nodes that declare it. Admission from a queue
-- happens in a transaction that locks this row, so the limits hold across nodes.
CREATE TABLE ${schema}.queue (
    namespace             text NOT NULL,
    name                  text NOT NULL,
    concurrency           int NOT NULL DEFAULT 0,
    per_node_concurrency  int NOT NULL DEFAULT 0,
    rate_limit            int NOT NULL DEFAULT 0,
    rate_period_ms        bigint NOT NULL DEFAULT 1000,
    partition_concurrency int NOT NULL DEFAULT 0,
    updated_at            timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (namespace, name)
);

-- A workflow run started into a queue: WAITING until admitted, then ADMITTED until the run
-- closes (a closed run's row is removed by the next admission round, or with the run by the
-- retention). While it waits, its workflow_run row is open but not runnable: no owner, no wake
-- time, task_attempt -1 (every claim asks for task_attempt = 0 before it looks at input), so a
-- signal or cancel sent meanwhile waits in its inbox. The admission takes the run for the
-- admitting node (owner, epoch + 1, next_wake_at = now, task_attempt = 0). Times are the engine
-- clock's.
CREATE TABLE ${schema}.queued_run (
    run_id        uuid PRIMARY KEY,
    namespace     text NOT NULL,
    queue         text NOT NULL,
    workflow_type text NOT NULL,
    task_queue    text NOT NULL,
    priority      int NOT NULL DEFAULT 0,
    partition_key text,
    enqueued_at   timestamptz NOT NULL,
    state         text NOT NULL DEFAULT 'WAITING',
    admitted_by   uuid,
    admitted_at   timestamptz
);
-- the candidates of a round, in admission order (run_id: a stable order for equal times, paged by it)
CREATE INDEX queued_run_waiting ON ${schema}.queued_run (namespace, queue, priority DESC, enqueued_at, run_id) WHERE state = 'WAITING';
CREATE INDEX queued_run_admitted ON ${schema}.queued_run (namespace, queue) WHERE state = 'ADMITTED';

-- Starts admitted from a queue with a rate limit, for that limit (a sliding window over the
-- engine clock); pruned past the period by the rounds.
CREATE TABLE ${schema}.queue_start (
    namespace  text NOT NULL,
    queue      text NOT NULL,
    started_at timestamptz NOT NULL
);
CREATE INDEX queue_start_window ON ${schema}.queue_start (namespace, queue, started_at);
