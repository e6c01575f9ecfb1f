--liquibase formatted sql

--changeset durable:005-retention-index
-- Retention finds closed runs oldest first without scanning the table. closed_at is set once,
-- when the run closes (status changes then too), so this index costs open runs no HOT updates.
CREATE INDEX workflow_run_closed ON ${schema}.workflow_run (closed_at) WHERE status <> 'RUNNING';
