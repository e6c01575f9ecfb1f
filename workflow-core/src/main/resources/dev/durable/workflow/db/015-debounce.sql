--liquibase formatted sql

--changeset durable:015-debounce
-- Open windows of debounced starts: one per namespace and key, with the last call's input and
-- start options. Calls upsert it; the worker nodes' firing loop locks a due one (SKIP LOCKED),
-- starts its run and deletes it in one transaction. Times are the engine clock's.
CREATE TABLE ${schema}.debounce (
    namespace     text NOT NULL,
    debounce_key  text NOT NULL,
    workflow_type text NOT NULL,
    workflow_id   text NOT NULL,
    input         bytea,
    options       bytea NOT NULL,
    first_at      timestamptz NOT NULL,
    fire_at       timestamptz NOT NULL,
    calls         int NOT NULL,
    PRIMARY KEY (namespace, debounce_key)
);
CREATE INDEX debounce_due ON ${schema}.debounce (namespace, fire_at);
