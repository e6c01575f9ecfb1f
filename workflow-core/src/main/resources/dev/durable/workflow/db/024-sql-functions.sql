--liquibase formatted sql

--changeset durable:024-start-workflow splitStatements:false
-- start_workflow: starts a run from SQL, inside the caller's transaction, as the Java client's
-- start does when no node of the type is local: the run is inserted unowned and runnable (or
-- waiting in its flow-control queue), so whichever node serves its type and task queue claims
-- it, and a notification (sent by PostgreSQL only if the transaction commits) wakes the nodes.
-- Rolled back with the caller's transaction, it leaves nothing. Errors start with 'durable: '.
-- Inputs are stored as the JSON text of the jsonb value: the bytes the default JSON payload
-- converter reads.
CREATE OR REPLACE FUNCTION ${schema}.start_workflow(workflow_type text, workflow_id text, input jsonb DEFAULT NULL,
        options jsonb DEFAULT '{}')
    RETURNS uuid
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
    v_type text := start_workflow.workflow_type;
    v_id text := start_workflow.workflow_id;
    v_options jsonb := COALESCE(start_workflow.options, '{}'::jsonb);
    v_key text;
    v_namespace text;
    v_task_queue text;
    v_queue text;
    v_priority int := 0;
    v_partition_key text;
    v_request_id text;
    v_reuse text;
    v_conflict text;
    v_delay interval;
    v_run_timeout interval;
    v_execution_timeout interval;
    v_memo jsonb;
    v_search jsonb;
    v_now timestamptz := clock_timestamp();
    v_wake_at timestamptz;
    v_run_id uuid;
    v_existing uuid;
    v_latest_id uuid;
    v_latest_status text;
    v_current text;
    v_ramping text;
    v_ramping_percent int;
    v_target text;
    v_hash bigint := 0;
    v_bucket int := 0;
    v_queued boolean;
BEGIN
    IF v_type IS NULL OR btrim(v_type) = '' THEN
        RAISE EXCEPTION 'durable: a workflow type is required' USING ERRCODE = '22023';
    END IF;
    IF v_id IS NULL OR v_id !~ '^[A-Za-z0-9._:@-]{1,255}$' THEN
        RAISE EXCEPTION 'durable: invalid workflow id ''%'': use 1-255 letters, digits and ._:@-', v_id
            USING ERRCODE = '22023';
    END IF;
    IF jsonb_typeof(v_options) <> 'object' THEN
        RAISE EXCEPTION 'durable: options must be a JSON object, not %', v_options USING ERRCODE = '22023';
    END IF;
    -- a misspelt option would otherwise be ignored silently
    FOR v_key IN SELECT k FROM jsonb_object_keys(v_options) k LOOP
        IF v_key NOT IN ('namespace', 'taskQueue', 'queue', 'priority', 'partitionKey', 'startDelay', 'requestId',
                'idReusePolicy', 'idConflictPolicy', 'runTimeout', 'executionTimeout', 'memo', 'searchAttributes') THEN
            RAISE EXCEPTION 'durable: unknown start option ''%'' (known: namespace, taskQueue, queue, priority,'
                ' partitionKey, startDelay, requestId, idReusePolicy, idConflictPolicy, runTimeout, executionTimeout,'
                ' memo, searchAttributes)', v_key USING ERRCODE = '22023';
        END IF;
        IF jsonb_typeof(v_options -> v_key) = 'null' THEN
            CONTINUE;
        END IF;
        IF v_key NOT IN ('priority', 'memo', 'searchAttributes') AND jsonb_typeof(v_options -> v_key) <> 'string' THEN
            RAISE EXCEPTION 'durable: start option ''%'' must be a string, not %', v_key, v_options -> v_key
                USING ERRCODE = '22023';
        END IF;
    END LOOP;

    v_namespace := COALESCE(v_options ->> 'namespace', 'default');
    IF btrim(v_namespace) = '' THEN
        RAISE EXCEPTION 'durable: the namespace must not be blank' USING ERRCODE = '22023';
    END IF;
    v_task_queue := COALESCE(v_options ->> 'taskQueue', 'default');
    IF btrim(v_task_queue) = '' THEN
        RAISE EXCEPTION 'durable: the task queue must not be blank' USING ERRCODE = '22023';
    END IF;
    v_request_id := v_options ->> 'requestId';

    v_reuse := COALESCE(v_options ->> 'idReusePolicy', 'ALLOW_DUPLICATE');
    IF v_reuse NOT IN ('ALLOW_DUPLICATE', 'ALLOW_DUPLICATE_FAILED_ONLY', 'REJECT_DUPLICATE', 'TERMINATE_IF_RUNNING') THEN
        RAISE EXCEPTION 'durable: unknown idReusePolicy ''%'' (ALLOW_DUPLICATE, ALLOW_DUPLICATE_FAILED_ONLY,'
            ' REJECT_DUPLICATE)', v_reuse USING ERRCODE = '22023';
    END IF;
    v_conflict := COALESCE(v_options ->> 'idConflictPolicy', 'FAIL');
    IF v_conflict NOT IN ('FAIL', 'USE_EXISTING', 'TERMINATE_EXISTING') THEN
        RAISE EXCEPTION 'durable: unknown idConflictPolicy ''%'' (FAIL, USE_EXISTING)', v_conflict
            USING ERRCODE = '22023';
    END IF;
    -- terminating a run writes its history and tells its parent, children and result waiters:
    -- that stays the engine's (the Java client's start, or a terminate followed by this start).
    -- 22023 like every bad argument, not 0A000 (feature_not_supported): pools such as HikariCP
    -- take 0A000 for a broken connection and discard it
    IF v_reuse = 'TERMINATE_IF_RUNNING' OR v_conflict = 'TERMINATE_EXISTING' THEN
        RAISE EXCEPTION 'durable: % is not supported by start_workflow: terminate the open run through the client'
            ' first', CASE WHEN v_reuse = 'TERMINATE_IF_RUNNING' THEN 'idReusePolicy TERMINATE_IF_RUNNING'
            ELSE 'idConflictPolicy TERMINATE_EXISTING' END USING ERRCODE = '22023';
    END IF;

    BEGIN
        v_delay := (v_options ->> 'startDelay')::interval;
        v_run_timeout := (v_options ->> 'runTimeout')::interval;
        v_execution_timeout := (v_options ->> 'executionTimeout')::interval;
    EXCEPTION WHEN OTHERS THEN
        RAISE EXCEPTION 'durable: startDelay, runTimeout and executionTimeout are ISO-8601 durations (PT5M) or'
            ' interval text (5 minutes): %', SQLERRM USING ERRCODE = '22023';
    END;
    IF v_delay < interval '0' THEN
        RAISE EXCEPTION 'durable: startDelay must not be negative: %', v_options ->> 'startDelay'
            USING ERRCODE = '22023';
    END IF;
    IF v_run_timeout <= interval '0' OR v_execution_timeout <= interval '0' THEN
        RAISE EXCEPTION 'durable: timeouts must be positive' USING ERRCODE = '22023';
    END IF;
    IF v_delay > interval '0' THEN
        v_wake_at := v_now + v_delay;
    END IF;

    v_queue := v_options ->> 'queue';
    v_partition_key := v_options ->> 'partitionKey';
    IF jsonb_typeof(v_options -> 'priority') <> 'null' THEN
        IF jsonb_typeof(v_options -> 'priority') <> 'number' OR (v_options ->> 'priority') !~ '^-?[0-9]{1,10}$'
                OR (v_options ->> 'priority')::bigint NOT BETWEEN -2147483648 AND 2147483647 THEN
            RAISE EXCEPTION 'durable: priority must be an integer, not %', v_options -> 'priority'
                USING ERRCODE = '22023';
        END IF;
        v_priority := (v_options ->> 'priority')::int;
    END IF;
    IF v_queue IS NULL THEN
        IF v_partition_key IS NOT NULL OR v_priority <> 0 THEN
            RAISE EXCEPTION 'durable: a priority or partition key needs a queue' USING ERRCODE = '22023';
        END IF;
    ELSE
        IF v_queue !~ '^[A-Za-z0-9._:-]{1,100}$' THEN
            RAISE EXCEPTION 'durable: ''%'' is not a queue name: 1-100 letters, digits and ._:-', v_queue
                USING ERRCODE = '22023';
        END IF;
        IF v_partition_key IS NOT NULL AND (btrim(v_partition_key) = '' OR length(v_partition_key) > 255) THEN
            RAISE EXCEPTION 'durable: a partition key is 1-255 characters, not blank (got ''%'')', v_partition_key
                USING ERRCODE = '22023';
        END IF;
        -- as for the client: a queue no node declared would hold the run for ever
        IF NOT EXISTS (SELECT 1 FROM ${schema}.queue d WHERE d.namespace = v_namespace AND d.name = v_queue) THEN
            RAISE EXCEPTION 'durable: no node declared the queue ''%'' in namespace ''%''', v_queue, v_namespace
                USING ERRCODE = '22023';
        END IF;
    END IF;
    v_queued := v_queue IS NOT NULL;

    -- memo: any JSON values; search attributes: strings, numbers, booleans or lists of them (times
    -- as the engine stores them, text); null values are dropped, as the client drops them
    IF jsonb_typeof(v_options -> 'memo') <> 'null' THEN
        IF jsonb_typeof(v_options -> 'memo') <> 'object' THEN
            RAISE EXCEPTION 'durable: memo must be a JSON object' USING ERRCODE = '22023';
        END IF;
        SELECT jsonb_object_agg(e.key, e.value) INTO v_memo
            FROM jsonb_each(v_options -> 'memo') e WHERE jsonb_typeof(e.value) <> 'null';
        IF EXISTS (SELECT 1 FROM jsonb_object_keys(v_memo) k WHERE k !~ '^[A-Za-z0-9_]{1,64}$') THEN
            RAISE EXCEPTION 'durable: memo keys are 1-64 letters, digits and underscores' USING ERRCODE = '22023';
        END IF;
        IF length(v_memo::text) > 256 * 1024 THEN
            RAISE EXCEPTION 'durable: the memo is over the limit of 262144 bytes of JSON' USING ERRCODE = '22023';
        END IF;
    END IF;
    IF jsonb_typeof(v_options -> 'searchAttributes') <> 'null' THEN
        IF jsonb_typeof(v_options -> 'searchAttributes') <> 'object' THEN
            RAISE EXCEPTION 'durable: searchAttributes must be a JSON object' USING ERRCODE = '22023';
        END IF;
        SELECT jsonb_object_agg(e.key, e.value) INTO v_search
            FROM jsonb_each(v_options -> 'searchAttributes') e WHERE jsonb_typeof(e.value) <> 'null';
        IF EXISTS (SELECT 1 FROM jsonb_each(v_search) e WHERE e.key !~ '^[A-Za-z0-9_]{1,64}$'
                OR NOT (jsonb_typeof(e.value) IN ('string', 'number', 'boolean')
                    OR (jsonb_typeof(e.value) = 'array' AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(e.value) v
                        WHERE jsonb_typeof(v) NOT IN ('string', 'number', 'boolean'))))) THEN
            RAISE EXCEPTION 'durable: search attributes have keys of 1-64 letters, digits and underscores and'
                ' values that are strings, numbers, booleans or lists of them' USING ERRCODE = '22023';
        END IF;
        IF length(v_search::text) > 40 * 1024 THEN
            RAISE EXCEPTION 'durable: the search attributes are over the limit of 40960 bytes of JSON'
                USING ERRCODE = '22023';
        END IF;
    END IF;

    -- the same start again (a retried transaction that committed before): its run
    IF v_request_id IS NOT NULL THEN
        SELECT r.run_id INTO v_existing FROM ${schema}.workflow_run r
            WHERE r.namespace = v_namespace AND r.workflow_id = v_id AND r.request_id = v_request_id
            ORDER BY r.created_at DESC LIMIT 1;
        IF FOUND THEN
            RETURN v_existing;
        END IF;
    END IF;

    SELECT r.run_id INTO v_existing FROM ${schema}.workflow_run r
        WHERE r.namespace = v_namespace AND r.workflow_id = v_id AND r.status = 'RUNNING' FOR UPDATE;
    IF FOUND THEN
        IF v_conflict = 'USE_EXISTING' THEN
            RETURN v_existing;
        END IF;
        RAISE EXCEPTION 'durable: workflow id ''%'' is already running (run %)', v_id, v_existing
            USING ERRCODE = '23505', HINT = 'use another id or idConflictPolicy USE_EXISTING';
    END IF;
    SELECT r.run_id, r.status INTO v_latest_id, v_latest_status FROM ${schema}.workflow_run r
        WHERE r.namespace = v_namespace AND r.workflow_id = v_id ORDER BY r.created_at DESC, r.run_id DESC LIMIT 1;
    IF FOUND AND (v_reuse = 'REJECT_DUPLICATE' OR (v_reuse = 'ALLOW_DUPLICATE_FAILED_ONLY'
            AND v_latest_status = 'COMPLETED')) THEN
        RAISE EXCEPTION 'durable: workflow id ''%'' was already used by run % (%) and the id reuse policy % forbids'
            ' another', v_id, v_latest_id, v_latest_status, v_reuse USING ERRCODE = '23505';
    END IF;

    -- the build the run belongs to, as a start from a node that does not run the type assigns it:
    -- the ramping build for the workflow id's bucket under the ramping percentage, else the chosen
    -- current build, else the newest build with a live node (nodes' default deadAfter, 30 s), pinned
    -- there until its first task records the type's behaviour on that build; unversioned when no
    -- build is current
    SELECT rt.current_build, rt.ramping_build, COALESCE(rt.ramping_percent, 0), (SELECT b.build_id
            FROM ${schema}.worker_build b WHERE b.namespace = v_namespace AND EXISTS (SELECT 1 FROM ${schema}.node n
                WHERE n.namespace = b.namespace AND n.build_id = b.build_id AND n.last_heartbeat > now() - interval '30 seconds')
            ORDER BY b.first_seen_at DESC, b.build_id DESC LIMIT 1)
        INTO v_current, v_ramping, v_ramping_percent, v_target
        FROM (SELECT 1) one LEFT JOIN ${schema}.build_routing rt ON rt.namespace = v_namespace;
    -- the bucket is Java's String.hashCode of the id modulo 100 (floorMod), the same on every node:
    -- ids are ASCII, one UTF-16 unit per character
    FOR i IN 1 .. length(v_id) LOOP
        v_hash := (v_hash * 31 + ascii(substr(v_id, i, 1))) % 4294967296;
    END LOOP;
    IF v_hash >= 2147483648 THEN
        v_hash := v_hash - 4294967296;
    END IF;
    v_bucket := ((v_hash % 100) + 100) % 100;
    v_target := CASE WHEN v_ramping IS NOT NULL AND v_bucket < v_ramping_percent THEN v_ramping
        ELSE COALESCE(v_current, v_target) END;

    -- a UUID version 7 (time-ordered), as the engine's run ids
    v_run_id := encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING
        substring(int8send(floor(extract(epoch FROM v_now) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1),
        'hex')::uuid;

    -- unowned: runnable now (pending input, which every claim takes at once whatever a node's clock
    -- says), due at its start delay, or, in a queue, neither until the queue admits it
    INSERT INTO ${schema}.workflow_run AS w (run_id, namespace, workflow_id, workflow_type, task_queue, status,
            owner_node, epoch, history_seq, next_wake_at, pending_input, request_id, created_at, run_deadline,
            execution_deadline, attempt, task_attempt, build_id, pinned, ramp_bucket)
        VALUES (v_run_id, v_namespace, v_id, v_type, v_task_queue, 'RUNNING', NULL, 0, 0,
            CASE WHEN v_queued THEN NULL ELSE COALESCE(v_wake_at, v_now) END, NOT v_queued AND v_wake_at IS NULL,
            v_request_id, v_now, v_now + v_run_timeout, v_now + v_execution_timeout, 1,
            CASE WHEN v_queued THEN -1 ELSE 0 END, v_target, v_target IS NOT NULL,
            CASE WHEN v_target IS NULL THEN 0 ELSE v_bucket END)
        ON CONFLICT (namespace, workflow_id) WHERE status = 'RUNNING' DO NOTHING;
    IF NOT FOUND THEN
        -- a concurrent start of the id committed first
        SELECT r.run_id INTO v_existing FROM ${schema}.workflow_run r
            WHERE r.namespace = v_namespace AND r.workflow_id = v_id AND r.status = 'RUNNING';
        IF v_conflict = 'USE_EXISTING' AND v_existing IS NOT NULL THEN
            RETURN v_existing;
        END IF;
        RAISE EXCEPTION 'durable: workflow id ''%'' is already running (run %)', v_id, v_existing
            USING ERRCODE = '23505', HINT = 'use another id or idConflictPolicy USE_EXISTING';
    END IF;
    INSERT INTO ${schema}.run_payload (run_id, input, options)
        VALUES (v_run_id, convert_to(start_workflow.input::text, 'UTF8'), NULL);
    INSERT INTO ${schema}.visibility (run_id, namespace, workflow_id, workflow_type, status, start_time, memo,
            search_attributes)
        VALUES (v_run_id, v_namespace, v_id, v_type, 'RUNNING', v_now, v_memo, v_search);

    IF v_queued THEN
        -- a delayed start joins the queue when it comes due
        INSERT INTO ${schema}.queued_run (run_id, namespace, queue, workflow_type, task_queue, priority, partition_key,
                enqueued_at)
            VALUES (v_run_id, v_namespace, v_queue, v_type, v_task_queue, v_priority, v_partition_key,
                COALESCE(v_wake_at, v_now));
        -- a queue round on every node (the sender names no node, so none ignores it)
        PERFORM pg_notify('durable_${schema}', 'Q:00000000-0000-0000-0000-000000000000:' || v_queue);
    ELSIF v_wake_at IS NULL THEN
        -- any node that can claim it looks at once; a delayed start is found by the polls when due
        PERFORM pg_notify('durable_${schema}', '*');
    END IF;
    RETURN v_run_id;
END
$$;

--changeset durable:024-signal-workflow splitStatements:false
-- signal_workflow: sends a signal to the latest run of a workflow id, as the client's signal
-- through a handle does, inside the caller's transaction; with an idempotency key, a send of the
-- same key to the same workflow id is stored once. Returns the run signalled.
CREATE OR REPLACE FUNCTION ${schema}.signal_workflow(workflow_id text, signal_name text, payload jsonb DEFAULT NULL,
        idempotency_key text DEFAULT NULL, namespace text DEFAULT 'default')
    RETURNS uuid
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
    v_id text := signal_workflow.workflow_id;
    v_namespace text := signal_workflow.namespace;
    v_run_id uuid;
    v_status text;
    v_owner uuid;
BEGIN
    IF v_id IS NULL OR btrim(v_id) = '' THEN
        RAISE EXCEPTION 'durable: a workflow id is required' USING ERRCODE = '22023';
    END IF;
    IF signal_workflow.signal_name IS NULL OR btrim(signal_workflow.signal_name) = '' THEN
        RAISE EXCEPTION 'durable: a signal name is required' USING ERRCODE = '22023';
    END IF;
    IF v_namespace IS NULL OR btrim(v_namespace) = '' THEN
        RAISE EXCEPTION 'durable: the namespace must not be blank' USING ERRCODE = '22023';
    END IF;
    IF signal_workflow.idempotency_key IS NOT NULL AND btrim(signal_workflow.idempotency_key) = '' THEN
        RAISE EXCEPTION 'durable: an idempotency key must not be blank' USING ERRCODE = '22023';
    END IF;
    SELECT r.run_id, r.status INTO v_run_id, v_status FROM ${schema}.workflow_run r
        WHERE r.namespace = v_namespace AND r.workflow_id = v_id ORDER BY r.created_at DESC, r.run_id DESC LIMIT 1;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'durable: no workflow with id ''%''', v_id USING ERRCODE = 'P0002';
    END IF;
    IF signal_workflow.idempotency_key IS NOT NULL THEN
        INSERT INTO ${schema}.dedup (namespace, workflow_id, kind, dedup_key, run_id, stage)
            VALUES (v_namespace, v_id, 'SIGNAL', signal_workflow.idempotency_key, v_run_id, 'COMPLETED')
            ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN
            -- a retried send: the first one was stored, nothing changes
            RETURN v_run_id;
        END IF;
    END IF;
    -- the row is marked (and locked) before the item is added, and only while the run is open
    UPDATE ${schema}.workflow_run w SET pending_input = true, inbox_seq = w.inbox_seq + 1
        WHERE w.run_id = v_run_id AND (w.status || '') = 'RUNNING' RETURNING w.owner_node INTO v_owner;
    IF NOT FOUND THEN
        SELECT r.status INTO v_status FROM ${schema}.workflow_run r WHERE r.run_id = v_run_id;
        RAISE EXCEPTION 'durable: workflow % (run %) is closed: %', v_id, v_run_id, v_status
            USING ERRCODE = '55000';
    END IF;
    INSERT INTO ${schema}.inbox (run_id, kind, name, payload, message_id)
        VALUES (v_run_id, 'SIGNAL', signal_workflow.signal_name, convert_to(signal_workflow.payload::text, 'UTF8'),
            NULL);
    PERFORM pg_notify('durable_${schema}', CASE WHEN v_owner IS NULL THEN '*'
        ELSE 'R:' || v_owner || ':' || v_run_id END);
    RETURN v_run_id;
END
$$;

--changeset durable:024-cancel-workflow splitStatements:false
-- cancel_workflow: asks the latest run of a workflow id to cancel, as the client's cancel does,
-- inside the caller's transaction: the workflow sees a cancellation at its next task and may
-- clean up. Returns the run asked.
CREATE OR REPLACE FUNCTION ${schema}.cancel_workflow(workflow_id text, reason text DEFAULT NULL,
        namespace text DEFAULT 'default')
    RETURNS uuid
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
    v_id text := cancel_workflow.workflow_id;
    v_namespace text := cancel_workflow.namespace;
    v_run_id uuid;
    v_status text;
    v_owner uuid;
BEGIN
    IF v_id IS NULL OR btrim(v_id) = '' THEN
        RAISE EXCEPTION 'durable: a workflow id is required' USING ERRCODE = '22023';
    END IF;
    IF v_namespace IS NULL OR btrim(v_namespace) = '' THEN
        RAISE EXCEPTION 'durable: the namespace must not be blank' USING ERRCODE = '22023';
    END IF;
    SELECT r.run_id INTO v_run_id FROM ${schema}.workflow_run r
        WHERE r.namespace = v_namespace AND r.workflow_id = v_id ORDER BY r.created_at DESC, r.run_id DESC LIMIT 1;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'durable: no workflow with id ''%''', v_id USING ERRCODE = 'P0002';
    END IF;
    UPDATE ${schema}.workflow_run w SET pending_input = true, inbox_seq = w.inbox_seq + 1
        WHERE w.run_id = v_run_id AND (w.status || '') = 'RUNNING' RETURNING w.owner_node INTO v_owner;
    IF NOT FOUND THEN
        SELECT r.status INTO v_status FROM ${schema}.workflow_run r WHERE r.run_id = v_run_id;
        RAISE EXCEPTION 'durable: workflow % (run %) is closed: %', v_id, v_run_id, v_status
            USING ERRCODE = '55000';
    END IF;
    INSERT INTO ${schema}.inbox (run_id, kind, name, payload, message_id)
        VALUES (v_run_id, 'CANCEL', NULL, convert_to(cancel_workflow.reason, 'UTF8'), NULL);
    PERFORM pg_notify('durable_${schema}', CASE WHEN v_owner IS NULL THEN '*'
        ELSE 'R:' || v_owner || ':' || v_run_id END);
    RETURN v_run_id;
END
$$;
