--liquibase formatted sql

--changeset durable:004-run-deadlines
-- Run timeout (this run) and execution timeout (the whole chain of continue-as-new runs).
ALTER TABLE ${schema}.workflow_run ADD COLUMN run_deadline timestamptz;
ALTER TABLE ${schema}.workflow_run ADD COLUMN execution_deadline timestamptz;
