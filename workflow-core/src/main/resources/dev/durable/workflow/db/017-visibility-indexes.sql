--liquibase formatted sql

--changeset durable:017-visibility-indexes
-- One index of closed runs by close time instead of two. Retention used workflow_run_closed (on
-- the hot run row) and the closedBetween filter visibility_by_close (namespace first); both ask
-- "closed before or within a time", and close_time is written with closed_at in the same commit.
-- visibility_closed serves both: retention reads it across namespaces, oldest first, and a
-- closedBetween list reads its time range and checks the namespace. A run's close now adds one
-- index entry fewer. Every remaining visibility index is justified by VisibilityIndexPlanTest.
DROP INDEX ${schema}.workflow_run_closed;
DROP INDEX ${schema}.visibility_by_close;
CREATE INDEX visibility_closed ON ${schema}.visibility (close_time) WHERE close_time IS NOT NULL;

--changeset durable:017-visibility-search-partial
-- GIN indexes NULL too: every run without search attributes put an entry into visibility_search at
-- its start and another at its close. Every search attribute condition is a strict operator on the
-- column (@@, ->), which implies IS NOT NULL, so the partial index serves the same filters.
DROP INDEX ${schema}.visibility_search;
CREATE INDEX visibility_search ON ${schema}.visibility USING gin (search_attributes jsonb_path_ops)
    WHERE search_attributes IS NOT NULL;
