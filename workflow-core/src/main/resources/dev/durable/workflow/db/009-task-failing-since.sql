--liquibase formatted sql

--changeset durable:009-task-failing-since
-- When the current streak of failed workflow tasks began (engine clock): set by the first failure
-- of a streak, read only while task_attempt > 0. Not indexed, so task commits stay HOT updates.
ALTER TABLE ${schema}.workflow_run ADD COLUMN task_failing_since timestamptz;
