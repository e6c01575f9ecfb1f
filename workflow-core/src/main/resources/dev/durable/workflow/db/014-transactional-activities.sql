--liquibase formatted sql

--changeset durable:014-transactional-activities
-- The result of a transactional activity, written by the activity's own transaction together with
-- its database writes (state COMPLETED) and deleted by the workflow task that records it in the
-- history. A node that takes the run over in between hands this result over instead of running
-- the activity again.
ALTER TABLE ${schema}.activity ADD COLUMN result bytea;
