--liquibase formatted sql

--changeset durable:020-activity-operations
-- What an operator (or a retry policy that pauses when its attempts are exhausted) set for
-- one pending activity of a run, inline or on a task queue: a row only for the activities
-- someone acted on, so the claims' check of it is one primary-key probe that finds nothing.
-- paused_at: paused since (engine clock), NULL when not paused; no attempt starts while set.
-- paused_after: the attempts the retry policy had made when it paused the activity, or NULL.
-- options: the activity's options for the attempts to come, set by an operator, or NULL.
-- attempt_base: attempts of earlier rounds (an unpause after exhausted retries starts a new
-- round of the retry policy's maximum attempts).
-- reset_pending: a reset came while an attempt ran: when that attempt fails, the next one is
-- attempt 1, due at once; drop_details: that reset drops the heartbeat details.
CREATE TABLE ${schema}.activity_control (
    run_id        uuid NOT NULL,
    seq           bigint NOT NULL,
    paused_at     timestamptz,
    pause_reason  text,
    paused_after  int,
    options       bytea,
    attempt_base  int NOT NULL DEFAULT 0,
    reset_pending boolean NOT NULL DEFAULT false,
    drop_details  boolean NOT NULL DEFAULT false,
    PRIMARY KEY (run_id, seq)
);
