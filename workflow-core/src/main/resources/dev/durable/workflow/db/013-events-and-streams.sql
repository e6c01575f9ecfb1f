--liquibase formatted sql

--changeset durable:013-workflow-event
-- Workflows.setEvent: the latest value of each key a run set. Written by the commit of the
-- workflow task that recorded the EVENT_SET command (history stays the source of truth; these rows
-- are what clients read without replaying). Continue-as-new copies a run's rows to the next run.
-- Deleted with the run by retention.
CREATE TABLE ${schema}.workflow_event (
    run_id      uuid NOT NULL,
    event_key   text NOT NULL,
    namespace   text NOT NULL,
    workflow_id text NOT NULL,
    value       bytea NOT NULL,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (run_id, event_key)
);

--changeset durable:013-workflow-stream
-- Workflows.stream(key).write(value): one row per value, numbered from 0 per run and key by the
-- workflow code (the offset is part of the recorded STREAM_WRITE command, so a replay or a retried
-- task writes the same offsets). The row with value NULL marks the end (WorkflowStream.close).
-- Written by the commit of the task that recorded the command; deleted with the run by retention.
CREATE TABLE ${schema}.workflow_stream (
    run_id        uuid NOT NULL,
    stream_key    text NOT NULL,
    stream_offset bigint NOT NULL,
    value         bytea,
    written_at    timestamptz NOT NULL,
    PRIMARY KEY (run_id, stream_key, stream_offset)
);
