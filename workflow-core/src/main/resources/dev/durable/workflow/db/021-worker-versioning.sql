--liquibase formatted sql

--changeset durable:021-run-build
-- The build a run belongs to. A pinned run's workflow tasks run only on nodes of that build; an
-- auto-upgrading run's next task runs on the namespace's current build (or on the ramping build
-- when its bucket, fixed per workflow id at its start, falls under the ramping percentage), and
-- build_id records the build that started it. NULL: an unversioned run, which any node may take.
ALTER TABLE ${schema}.workflow_run ADD COLUMN build_id text;
ALTER TABLE ${schema}.workflow_run ADD COLUMN pinned boolean NOT NULL DEFAULT false;
ALTER TABLE ${schema}.workflow_run ADD COLUMN ramp_bucket smallint NOT NULL DEFAULT 0;
-- Why the last move of a stranded pinned run to another build was refused (its history does not
-- replay there), so the automatic policy does not replay it again and the run shows why it waits.
ALTER TABLE ${schema}.workflow_run ADD COLUMN move_refused text;
-- Open pinned runs by build: the drain status, the stranded-run gauge and the moves read only them.
CREATE INDEX workflow_run_pinned_build ON ${schema}.workflow_run (namespace, build_id) WHERE status = 'RUNNING' AND pinned;

--changeset durable:021-worker-build
-- Every build a node of the namespace has run: when it was first seen (the newest build with a
-- live node is the current one unless an operator chose one), when a node of it last heartbeat
-- (how long its last node has been gone) and when a node of it last committed a workflow task.
CREATE TABLE ${schema}.worker_build (
    namespace     text NOT NULL,
    build_id      text NOT NULL,
    first_seen_at timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz NOT NULL DEFAULT now(),
    last_task_at  timestamptz,
    PRIMARY KEY (namespace, build_id)
);

--changeset durable:021-build-routing
-- The operator's choice per namespace: the current build (NULL: the newest build with a live
-- node) and an optional ramping build that takes the given percentage of new runs.
CREATE TABLE ${schema}.build_routing (
    namespace       text PRIMARY KEY,
    current_build   text,
    ramping_build   text,
    ramping_percent int NOT NULL DEFAULT 0 CHECK (ramping_percent BETWEEN 0 AND 100),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
