--liquibase formatted sql

--changeset durable:006-run-chains
-- The run that follows a closed one (continue-as-new, workflow retry, cron), and the attempt
-- number of a retried workflow.
ALTER TABLE ${schema}.workflow_run ADD COLUMN next_run_id uuid;
ALTER TABLE ${schema}.workflow_run ADD COLUMN attempt int NOT NULL DEFAULT 1;
