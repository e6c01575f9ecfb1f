--liquibase formatted sql

--changeset durable:001-node
CREATE TABLE ${schema}.node (
    node_id        uuid PRIMARY KEY,          -- one per engine instance; owner of runs
    incarnation    bigint NOT NULL DEFAULT 1, -- bumped when a node declared dead registers anew
    node_name      text NOT NULL,             -- host and pid, for people
    build_id       text,
    served_types   text[] NOT NULL,
    task_queues    text[] NOT NULL,
    started_at     timestamptz NOT NULL DEFAULT now(),
    last_heartbeat timestamptz NOT NULL DEFAULT now()
);

--changeset durable:001-workflow-run
-- The hot row: small, updated by every workflow task (fillfactor leaves room for HOT updates).
CREATE TABLE ${schema}.workflow_run (
    run_id          uuid PRIMARY KEY,
    namespace       text NOT NULL,
    workflow_id     text NOT NULL,
    workflow_type   text NOT NULL,
    task_queue      text NOT NULL,
    status          text NOT NULL,
    owner_node      uuid,
    epoch           bigint NOT NULL DEFAULT 0,
    history_seq     int NOT NULL DEFAULT 0,
    next_wake_at    timestamptz,
    pending_input   boolean NOT NULL DEFAULT false,
    inbox_seq       bigint NOT NULL DEFAULT 0,
    has_activities  boolean NOT NULL DEFAULT false,
    task_attempt    int NOT NULL DEFAULT 0,
    task_failure    text,
    request_id      text,
    created_at      timestamptz NOT NULL,
    closed_at       timestamptz
) WITH (fillfactor = 75);
-- Workflow id unique among open runs: the database enforces it, so it can serve as a lock.
CREATE UNIQUE INDEX workflow_run_open_id ON ${schema}.workflow_run (namespace, workflow_id) WHERE status = 'RUNNING';
CREATE INDEX workflow_run_by_workflow_id ON ${schema}.workflow_run (namespace, workflow_id, created_at DESC);
-- Claimable runs: small partial indexes over open runs only.
CREATE INDEX workflow_run_wake ON ${schema}.workflow_run (next_wake_at) WHERE status = 'RUNNING';
CREATE INDEX workflow_run_pending ON ${schema}.workflow_run (owner_node) WHERE status = 'RUNNING' AND (pending_input OR has_activities);
ALTER TABLE ${schema}.workflow_run SET (autovacuum_vacuum_scale_factor = 0.05, autovacuum_analyze_scale_factor = 0.05);

--changeset durable:001-run-payload
-- Cold payloads, off the hot row.
CREATE TABLE ${schema}.run_payload (
    run_id   uuid PRIMARY KEY,
    input    bytea,
    result   bytea,
    failure  bytea,
    options  bytea
);

--changeset durable:001-history
-- One row per workflow task: its events, inputs then commands, as one JSON document.
CREATE TABLE ${schema}.history (
    run_id     uuid NOT NULL,
    seq        int NOT NULL,
    created_at timestamptz NOT NULL,
    events     bytea NOT NULL,
    PRIMARY KEY (run_id, seq)
);

--changeset durable:001-inbox
-- Input waiting to enter a run's history: signals, updates, cancel requests, completions.
CREATE TABLE ${schema}.inbox (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id      uuid NOT NULL,
    kind        text NOT NULL,
    name        text,
    payload     bytea,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inbox_by_run ON ${schema}.inbox (run_id, id);
ALTER TABLE ${schema}.inbox SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 1000);

--changeset durable:001-dedup
-- Signal idempotency keys and update ids, per workflow id, kept until retention.
CREATE TABLE ${schema}.dedup (
    namespace    text NOT NULL,
    workflow_id  text NOT NULL,
    kind         text NOT NULL,
    dedup_key    text NOT NULL,
    run_id       uuid NOT NULL,
    outcome      bytea,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (namespace, workflow_id, kind, dedup_key)
);

--changeset durable:001-timer
CREATE TABLE ${schema}.timer (
    run_id   uuid NOT NULL,
    seq      bigint NOT NULL,
    fire_at  timestamptz NOT NULL,
    PRIMARY KEY (run_id, seq)
);
ALTER TABLE ${schema}.timer SET (autovacuum_vacuum_scale_factor = 0.02);

--changeset durable:001-activity
-- Pending activities: attempt, next retry, last failure and heartbeat survive crashes.
CREATE TABLE ${schema}.activity (
    run_id            uuid NOT NULL,
    seq               bigint NOT NULL,
    activity_type     text NOT NULL,
    task_queue        text,
    input             bytea,
    options           bytea,
    attempt           int NOT NULL DEFAULT 1,
    scheduled_at      timestamptz NOT NULL,
    next_attempt_at   timestamptz NOT NULL,
    last_failure      bytea,
    heartbeat_details bytea,
    last_heartbeat_at timestamptz,
    PRIMARY KEY (run_id, seq)
) WITH (fillfactor = 80);
ALTER TABLE ${schema}.activity SET (autovacuum_vacuum_scale_factor = 0.02);

--changeset durable:001-visibility
CREATE TABLE ${schema}.visibility (
    run_id            uuid PRIMARY KEY,
    namespace         text NOT NULL,
    workflow_id       text NOT NULL,
    workflow_type     text NOT NULL,
    status            text NOT NULL,
    start_time        timestamptz NOT NULL,
    close_time        timestamptz,
    memo              jsonb,
    search_attributes jsonb
);
CREATE INDEX visibility_by_type ON ${schema}.visibility (namespace, workflow_type, start_time DESC);
CREATE INDEX visibility_by_status ON ${schema}.visibility (namespace, status, start_time DESC);
CREATE INDEX visibility_search ON ${schema}.visibility USING gin (search_attributes jsonb_path_ops);

--changeset durable:001-schedule
CREATE TABLE ${schema}.schedule (
    namespace    text NOT NULL,
    schedule_id  text NOT NULL,
    spec         jsonb NOT NULL,
    action       bytea NOT NULL,
    state        jsonb,
    paused       boolean NOT NULL DEFAULT false,
    next_run_at  timestamptz,
    PRIMARY KEY (namespace, schedule_id)
);
