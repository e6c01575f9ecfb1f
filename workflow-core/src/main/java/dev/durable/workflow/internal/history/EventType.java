package dev.durable.workflow.internal.history;

/**
 * Kinds of history events. Inputs enter a workflow task from outside (and are applied
 * before the code runs); commands are what the code produced, and are matched on replay.
 */
public enum EventType {

	WORKFLOW_STARTED(false), ACTIVITY_COMPLETED(false), ACTIVITY_FAILED(false), TIMER_FIRED(false),
	CANCEL_REQUESTED(false), SIGNAL_RECEIVED(false), UPDATE_ACCEPTED(false), CHILD_STARTED(false),
	CHILD_START_FAILED(false), CHILD_CLOSED(false), EXTERNAL_DELIVERED(false),

	/** The memo and search attributes the run started with (only when it has any). */
	WORKFLOW_ATTRIBUTES(false),

	/**
	 * Operations on a pending activity, by an operator or (a pause) by a retry policy
	 * whose attempts are exhausted: recorded for people, ignored by the workflow's code
	 * and its replay.
	 */
	ACTIVITY_PAUSED(false), ACTIVITY_UNPAUSED(false), ACTIVITY_RESET(false), ACTIVITY_OPTIONS_UPDATED(false),

	ACTIVITY_SCHEDULED(true), START_CHILD(true), SIGNAL_EXTERNAL(true), CANCEL_EXTERNAL(true),
	ACTIVITY_CANCEL_REQUESTED(true), TIMER_STARTED(true), TIMER_CANCELED(true), SIDE_EFFECT(true), VERSION_MARKER(true),

	/**
	 * A local activity's outcome (its result, or its final failure), recorded by the task
	 * that ran it.
	 */
	LOCAL_ACTIVITY(true),

	UPDATE_COMPLETED(true), WORKFLOW_COMPLETED(true), WORKFLOW_FAILED(true), WORKFLOW_CANCELED(true),
	CONTINUED_AS_NEW(true),

	/**
	 * Workflows.upsertSearchAttributes and upsertMemo: the payload is the patch (null
	 * removes a key).
	 */
	UPSERT_SEARCH_ATTRIBUTES(true), UPSERT_MEMO(true),

	/**
	 * Workflows.setEvent (name: the key, payload: the value), a stream write (name: the
	 * key, seq: the offset, payload: the value) and a stream's end (name: the key, seq:
	 * the offset after the last value). The task's commit writes them to the run's event
	 * and stream rows.
	 */
	EVENT_SET(true), STREAM_WRITE(true), STREAM_CLOSED(true),

	/** Written by terminate, outside any workflow task. */
	WORKFLOW_TERMINATED(false),

	/** Written when the run or execution timeout passed, outside any workflow task. */
	WORKFLOW_TIMED_OUT(false),

	TOPIC_WAIT_STARTED(true), TOPIC_WAIT_ENDED(true), TOPIC_EVENT_RECEIVED(false);

	private final boolean command;

	EventType(boolean command) {
		this.command = command;
	}

	public boolean isCommand() {
		return this.command;
	}

	/**
	 * Whether the event is written by the engine outside any workflow task (terminate,
	 * timeout).
	 */
	public boolean writtenOutsideTasks() {
		return this == WORKFLOW_TERMINATED || this == WORKFLOW_TIMED_OUT;
	}

	/**
	 * Whether the payload is the engine's own JSON (memo and search attributes) rather
	 * than bytes of the payload converter.
	 */
	public boolean payloadIsEngineJson() {
		return this == WORKFLOW_ATTRIBUTES || this == UPSERT_MEMO || this == UPSERT_SEARCH_ATTRIBUTES;
	}

	/**
	 * Whether the event is an output of the run: an event set, a stream write or a
	 * stream's end.
	 */
	public boolean isOutput() {
		return this == EVENT_SET || this == STREAM_WRITE || this == STREAM_CLOSED;
	}

	/**
	 * Whether the command begins or ends a wait for topic events: its commit registers or
	 * removes the wait.
	 */
	public boolean isTopicWait() {
		return this == TOPIC_WAIT_STARTED || this == TOPIC_WAIT_ENDED;
	}

	/**
	 * Whether the event records an operation on a pending activity (pause, unpause,
	 * reset, options): an input the workflow's code never sees.
	 */
	public boolean isActivityOperation() {
		return this == ACTIVITY_PAUSED || this == ACTIVITY_UNPAUSED || this == ACTIVITY_RESET
				|| this == ACTIVITY_OPTIONS_UPDATED;
	}

	public boolean closesRun() {
		return this == WORKFLOW_COMPLETED || this == WORKFLOW_FAILED || this == WORKFLOW_CANCELED
				|| this == WORKFLOW_TERMINATED || this == CONTINUED_AS_NEW || this == WORKFLOW_TIMED_OUT;
	}

}
