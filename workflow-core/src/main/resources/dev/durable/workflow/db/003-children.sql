--liquibase formatted sql

--changeset durable:003-child-runs
-- A child run knows its parent, the parent's command that started it and what happens to it
-- when the parent closes. Messages between runs go through the inbox, never through row locks.
ALTER TABLE ${schema}.workflow_run ADD COLUMN parent_run_id uuid;
ALTER TABLE ${schema}.workflow_run ADD COLUMN parent_seq bigint;
ALTER TABLE ${schema}.workflow_run ADD COLUMN parent_close_policy text;
CREATE INDEX workflow_run_children ON ${schema}.workflow_run (parent_run_id) WHERE status = 'RUNNING' AND parent_run_id IS NOT NULL;
