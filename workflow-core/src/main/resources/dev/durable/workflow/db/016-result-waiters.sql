--liquibase formatted sql

--changeset durable:016-result-waiters
-- Set by a node that waits for the run's outcome without holding the run. A close compares it
-- with the value its task read (so a flag set meanwhile fails the close's compare-and-set, and the
-- task runs again with the flag), and a close that finds it set sends the waiting nodes one
-- notification after its commit. Never cleared while the run is open.
ALTER TABLE ${schema}.workflow_run ADD COLUMN result_awaited boolean NOT NULL DEFAULT false;
