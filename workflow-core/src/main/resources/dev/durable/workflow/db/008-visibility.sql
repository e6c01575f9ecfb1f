--liquibase formatted sql

--changeset durable:008-visibility-indexes
-- Listing runs: every list is ordered by (start_time DESC, run_id DESC) for keyset pagination,
-- so each filter index ends with those columns and serves both the filter and the order (a page
-- reads only its own rows). The GIN index (jsonb_path_ops) of 001 serves search attribute
-- equality (search_attributes @> ...). Visibility rows change only at start, at close and when
-- a task upserts memo or search attributes: these indexes cost the hot workflow_run row nothing.
DROP INDEX ${schema}.visibility_by_type;
DROP INDEX ${schema}.visibility_by_status;
CREATE INDEX visibility_by_start ON ${schema}.visibility (namespace, start_time DESC, run_id DESC);
CREATE INDEX visibility_by_type ON ${schema}.visibility (namespace, workflow_type, start_time DESC, run_id DESC);
CREATE INDEX visibility_by_status ON ${schema}.visibility (namespace, status, start_time DESC, run_id DESC);
-- closed runs by close time (open runs have none)
CREATE INDEX visibility_by_close ON ${schema}.visibility (namespace, close_time) WHERE close_time IS NOT NULL;
-- workflow id prefixes (LIKE 'prefix%' needs pattern ops whatever the database collation)
CREATE INDEX visibility_by_workflow_id ON ${schema}.visibility (namespace, workflow_id text_pattern_ops);
