--liquibase formatted sql

--changeset durable:012-batches
-- A batch operation (cancel, terminate, signal or reset of every run a filter matches). The run
-- of the engine's own type durable-batch carries it out a page at a time; this row is its
-- progress, readable without replaying that run. request is the request as JSON (the filter with
-- typed values); fingerprint is a hash of it without the batch id, so a retried start with the
-- same request finds the batch and a different request under the same id is refused. Each page
-- commits its counts and the next page token with a compare-and-set on pages, so a page redone
-- after a crash counts once. Times are the engine clock's.
CREATE TABLE ${schema}.batch (
    namespace       text NOT NULL,
    batch_id        text NOT NULL,
    operation       text NOT NULL,
    request         bytea NOT NULL,
    fingerprint     text NOT NULL,
    state           text NOT NULL,
    page_token      text,
    pages           bigint NOT NULL DEFAULT 0,
    total           bigint NOT NULL DEFAULT 0,
    processed       bigint NOT NULL DEFAULT 0,
    succeeded       bigint NOT NULL DEFAULT 0,
    skipped         bigint NOT NULL DEFAULT 0,
    failed          bigint NOT NULL DEFAULT 0,
    recent_failures bytea,
    created_at      timestamptz NOT NULL,
    closed_at       timestamptz,
    PRIMARY KEY (namespace, batch_id)
);

CREATE INDEX batch_created ON ${schema}.batch (namespace, created_at DESC, batch_id DESC);
