--liquibase formatted sql

--changeset durable:022-topic-event
-- An event published on a topic: stored once per event id (a repeat with the same id inserts
-- nothing). The payload is JSON so that the database finds the runs whose match it satisfies.
-- position is NULL until a dispatch gives the event its place on the topic (1, 2, ... per
-- namespace and topic, in dispatch order) and hands it to the runs waiting for it.
CREATE TABLE ${schema}.topic_event (
    namespace     text NOT NULL,
    topic         text NOT NULL,
    event_id      text NOT NULL,
    payload       jsonb NOT NULL,
    published_at  timestamptz NOT NULL DEFAULT now(),
    position      bigint,
    dispatched_at timestamptz,
    PRIMARY KEY (namespace, topic, event_id)
);
-- the events no dispatch has handled yet, oldest first
CREATE INDEX topic_event_undispatched ON ${schema}.topic_event (published_at) WHERE position IS NULL;
-- the dispatched events by age, for the retention
CREATE INDEX topic_event_dispatched ON ${schema}.topic_event (namespace, dispatched_at) WHERE dispatched_at IS NOT NULL;
-- the events of a topic in order, for a wait that asks for events since a position
CREATE UNIQUE INDEX topic_event_position ON ${schema}.topic_event (namespace, topic, position);

--changeset durable:022-event-topic
-- One row per topic: its last dispatched position. A dispatch updates it (a row lock held to its
-- commit); a workflow task that begins a wait reads it FOR SHARE. The two exclude each other, so a
-- wait either is visible to a dispatch or begins after it (and its position is then past the
-- event's): no event falls between.
CREATE TABLE ${schema}.event_topic (
    namespace     text NOT NULL,
    topic         text NOT NULL,
    last_position bigint NOT NULL DEFAULT 0,
    last_event_at timestamptz,
    PRIMARY KEY (namespace, topic)
);

--changeset durable:022-event-wait
-- A run waiting for an event (Workflows.awaitEvent), written by the commit of the task that began
-- the wait. fields: the payload fields the match names, sorted; match: those fields' values as a
-- JSON object. A dispatch computes, for each shape of match a topic has (event_wait_shape), the
-- event's own object of those fields and finds the waits by equality on the index. It sees events
-- after after_position only.
CREATE TABLE ${schema}.event_wait (
    run_id         uuid NOT NULL,
    wait_seq       bigint NOT NULL,
    namespace      text NOT NULL,
    topic          text NOT NULL,
    fields         text[] NOT NULL,
    match          jsonb NOT NULL,
    after_position bigint NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, wait_seq)
);
CREATE INDEX event_wait_match ON ${schema}.event_wait (namespace, topic, fields, match);
-- the shapes of match the waits of a topic use (few: one per awaitEvent call site)
CREATE TABLE ${schema}.event_wait_shape (
    namespace text NOT NULL,
    topic     text NOT NULL,
    fields    text[] NOT NULL,
    PRIMARY KEY (namespace, topic, fields)
);

--changeset durable:022-event-delivery
-- An event a dispatch matched to a wait, until it is in the run's inbox. The dispatch that matches
-- holds the topic's row; it writes these rows and touches no run row, so it never waits for a
-- workflow task's commit (which holds its run row, then reads the topic row). A second step moves
-- them to the inboxes, skipping runs whose rows are locked for now.
CREATE TABLE ${schema}.event_delivery (
    run_id      uuid NOT NULL,
    wait_seq    bigint NOT NULL,
    namespace   text NOT NULL,
    topic       text NOT NULL,
    event_id    text NOT NULL,
    position    bigint NOT NULL,
    PRIMARY KEY (run_id, wait_seq)
);

--changeset durable:022-event-trigger
-- What events on a topic do to a workflow type, declared by the nodes that register the type
-- (@StartOnEvent, @CancelOnEvent), replaced at each start of such a node. kind: START (a run per
-- event), BATCH (a run per batch of events) or CANCEL (cancels the open runs whose search
-- attribute equals a payload field). The dispatch copies each event's triggers to event_action.
CREATE TABLE ${schema}.event_trigger (
    namespace     text NOT NULL,
    topic         text NOT NULL,
    workflow_type text NOT NULL,
    kind          text NOT NULL,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (namespace, topic, workflow_type, kind)
);

--changeset durable:022-event-action
-- A trigger an event set off, until a node that registers the workflow type acts on it (starts
-- the run, adds the event to a batch that starts when full or old enough, cancels the matching
-- runs) and removes it in the same transaction. created_at is the engine clock's (batch windows).
CREATE TABLE ${schema}.event_action (
    namespace     text NOT NULL,
    topic         text NOT NULL,
    event_id      text NOT NULL,
    workflow_type text NOT NULL,
    kind          text NOT NULL,
    position      bigint NOT NULL,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (namespace, workflow_type, kind, topic, event_id)
);
CREATE INDEX event_action_order ON ${schema}.event_action (namespace, workflow_type, kind, topic, position);

--changeset durable:022-publish-event splitStatements:false
-- Publishes an event from SQL, inside the caller's transaction: stored once per event id (NULL: a
-- new id), dispatched by a node once the transaction commits (the notification is sent on commit).
-- Answers the event id, and whether this call stored it (false: an event with that id existed).
CREATE FUNCTION ${schema}.publish_event(p_topic text, p_payload jsonb, p_event_id text DEFAULT NULL,
        p_namespace text DEFAULT 'default', OUT event_id text, OUT published boolean)
LANGUAGE plpgsql AS $$
BEGIN
    IF p_topic IS NULL OR btrim(p_topic) = '' THEN
        RAISE EXCEPTION 'durable: an event needs a topic' USING ERRCODE = '22023';
    END IF;
    IF length(p_topic) > 200 THEN
        RAISE EXCEPTION 'durable: topic "%" is longer than 200 characters', left(p_topic, 40) USING ERRCODE = '22023';
    END IF;
    IF p_payload IS NULL THEN
        RAISE EXCEPTION 'durable: an event on topic "%" needs a payload (JSON; ''null''::jsonb for none)', p_topic
            USING ERRCODE = '22023';
    END IF;
    IF p_event_id IS NOT NULL AND btrim(p_event_id) = '' THEN
        RAISE EXCEPTION 'durable: an event id must not be blank' USING ERRCODE = '22023';
    END IF;
    IF p_namespace IS NULL OR btrim(p_namespace) = '' THEN
        RAISE EXCEPTION 'durable: a namespace must not be blank' USING ERRCODE = '22023';
    END IF;
    event_id := coalesce(p_event_id, gen_random_uuid()::text);
    INSERT INTO ${schema}.topic_event (namespace, topic, event_id, payload)
        VALUES (p_namespace, p_topic, event_id, p_payload) ON CONFLICT DO NOTHING;
    published := FOUND;
    IF published THEN
        PERFORM pg_notify(lower('durable_${schema}'), 'E');
    END IF;
END
$$;
