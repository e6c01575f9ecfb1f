--liquibase formatted sql

--changeset durable:002-inbox-message-id
-- Updates carry a caller-chosen id through the inbox.
ALTER TABLE ${schema}.inbox ADD COLUMN message_id text;

--changeset durable:002-dedup-stage
-- An update's progress (ADMITTED, ACCEPTED, COMPLETED, REJECTED) and its outcome, by update id.
ALTER TABLE ${schema}.dedup ADD COLUMN stage text;
ALTER TABLE ${schema}.dedup ADD COLUMN failure bytea;

--changeset durable:002-unfinished-handlers
-- How many signal or update handlers were still running when the run closed.
ALTER TABLE ${schema}.workflow_run ADD COLUMN unfinished_handlers int NOT NULL DEFAULT 0;
