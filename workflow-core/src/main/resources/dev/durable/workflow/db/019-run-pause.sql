--liquibase formatted sql

--changeset durable:019-run-pause
-- A paused run takes no workflow task and starts no activity attempt until it is unpaused:
-- when it was paused (engine clock) and why. Not indexed: a pause is rare and every query that
-- claims work already reads the run row, so task commits stay HOT updates.
ALTER TABLE ${schema}.workflow_run ADD COLUMN paused_at timestamptz;
ALTER TABLE ${schema}.workflow_run ADD COLUMN pause_reason text;
