--liquibase formatted sql

--changeset durable:007-schedule-state
-- A schedule row is advanced by compare-and-set on version, in the transaction that starts its
-- workflows. next_run_at is the due time (jitter included) of the next spec time; buffered
-- counts firings waiting for the schedule's running workflow to close.
ALTER TABLE ${schema}.schedule ADD COLUMN policies jsonb NOT NULL DEFAULT '{}';
ALTER TABLE ${schema}.schedule ADD COLUMN version bigint NOT NULL DEFAULT 0;
ALTER TABLE ${schema}.schedule ADD COLUMN buffered int NOT NULL DEFAULT 0;
ALTER TABLE ${schema}.schedule ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE ${schema}.schedule ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX schedule_due ON ${schema}.schedule (next_run_at) WHERE NOT paused;

--changeset durable:007-schedule-action
-- One row per processed firing. The primary key makes a second firing of the same nominal time
-- impossible even if two nodes race: 'S:'/'B:' + nominal time for scheduled and backfilled
-- firings, 'T:' + a random id for triggers. Pruned to the latest few per schedule.
CREATE TABLE ${schema}.schedule_action (
    namespace    text NOT NULL,
    schedule_id  text NOT NULL,
    firing_key   text NOT NULL,
    origin       text NOT NULL,
    nominal_time timestamptz NOT NULL,
    actual_time  timestamptz NOT NULL,
    outcome      text NOT NULL,
    workflow_id  text,
    run_id       uuid,
    reason       text,
    PRIMARY KEY (namespace, schedule_id, firing_key)
);
