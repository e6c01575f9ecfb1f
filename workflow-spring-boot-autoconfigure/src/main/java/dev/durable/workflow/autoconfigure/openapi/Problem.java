package dev.durable.workflow.autoconfigure.openapi;

import java.util.List;

/**
 * An error response an endpoint answers: its status and the stable codes of its problem
 * body.
 *
 * @param status the HTTP status
 * @param codes the {@code code} values, each with what it means
 */
record Problem(int status, List<String> codes) {

	static final Problem INVALID_PAYLOAD = new Problem(400, "INVALID_PAYLOAD: the body or a parameter is not valid");

	static final Problem INVALID_ID = new Problem(400, "INVALID_ID: the workflow id is not a valid id");

	static final Problem INVALID_KEY = new Problem(400,
			"INVALID_KEY: an event or stream key is 1-128 letters, digits and . _ : @ -");

	static final Problem INVALID_OFFSET = new Problem(400,
			"INVALID_OFFSET: ?from= or Last-Event-ID is not a stream offset (a whole number from 0)");

	static final Problem EVENT_NOT_SET = new Problem(404,
			"EVENT_NOT_SET: the event was not set within the wait (or the run closed without setting it)");

	static final Problem MISSING_INPUT = new Problem(400, "MISSING_INPUT: the run method takes an input the start"
			+ " lacks, or a record in the input or payload lacks a primitive field (the detail names it)");

	static final Problem UNKNOWN_TYPE = new Problem(400, "UNKNOWN_TYPE: no workflow type of that name is registered");

	static final Problem INVALID_TOKEN = new Problem(400, "INVALID_TOKEN: the task token is not one the engine issued");

	static final Problem READ_ONLY = new Problem(403,
			"READ_ONLY: mutating endpoints are off (durable.workflow.web.read-only)");

	static final Problem UNAUTHENTICATED = new Problem(401,
			"UNAUTHENTICATED: an operation needs an authenticated caller (durable.workflow.web.required-role)");

	static final Problem OPERATION_DISABLED = new Problem(403, "OPERATION_DISABLED: operations are off by default"
			+ " (durable.workflow.web.operations-enabled or durable.workflow.web.required-role)");

	static final Problem ROLE_REQUIRED = new Problem(403,
			"ROLE_REQUIRED: the caller lacks the role durable.workflow.web.required-role names");

	static final Problem WORKFLOW_NOT_FOUND = new Problem(404,
			"WORKFLOW_NOT_FOUND: no run with that workflow id (and run id)");

	static final Problem UNKNOWN_HANDLER = new Problem(404,
			"UNKNOWN_HANDLER: the workflow has no handler of that name");

	static final Problem ACTIVITY_NOT_PENDING = new Problem(404,
			"ACTIVITY_NOT_PENDING: the run waits for no activity of that id (never scheduled, or its outcome is recorded)");

	static final Problem SCHEDULE_NOT_FOUND = new Problem(404, "SCHEDULE_NOT_FOUND: no schedule with that id");

	static final Problem ALREADY_STARTED = new Problem(409,
			"WORKFLOW_ALREADY_STARTED: a run with that workflow id is open (or its id reuse policy refuses)");

	static final Problem START_CANCELED = new Problem(409,
			"START_CANCELED: the queue's partition key is full and its excess strategy is cancel-newest; nothing was"
					+ " stored");

	static final Problem START_DROPPED = new Problem(429,
			"START_DROPPED: the queue's partition key or rate window is full and its excess strategy is drop;"
					+ " nothing was stored");

	static final Problem WORKFLOW_CLOSED = new Problem(409, "WORKFLOW_CLOSED: the run is closed");

	static final Problem CONFLICT = new Problem(409, "CONFLICT: the run is not in a state that allows it");

	static final Problem UPDATE_FAILED = new Problem(409, "UPDATE_FAILED: the update handler failed (see failure)");

	static final Problem SCHEDULE_EXISTS = new Problem(409, "SCHEDULE_ALREADY_EXISTS: a schedule with that id exists");

	static final Problem TOO_LARGE = new Problem(413,
			"PAYLOAD_TOO_LARGE: the body is larger than durable.workflow.max-payload-size");

	static final Problem NOT_JSON = new Problem(415, "INVALID_PAYLOAD: the body's Content-Type is not JSON");

	static final Problem UPDATE_REJECTED = new Problem(422,
			"UPDATE_REJECTED: the update's validator rejected it (see failure); nothing changed");

	static final Problem QUERY_FAILED = new Problem(422, "QUERY_FAILED: the query handler threw");

	static final Problem UNAVAILABLE = new Problem(503,
			"DATABASE_UNAVAILABLE: the database cannot be reached; retry after Retry-After seconds");

	/**
	 * What an operation (a request that changes existing workflows or schedules, with a
	 * JSON body) may also answer: the access refusals of {@code durable.workflow.web.*}
	 * and the body checks.
	 */
	static final List<Problem> OPERATION = List.of(UNAUTHENTICATED, READ_ONLY, OPERATION_DISABLED, ROLE_REQUIRED,
			TOO_LARGE, NOT_JSON, UNAVAILABLE);

	/**
	 * What a start may also answer: read-only mode, the body checks, and, for
	 * signal-with-start only (it signals an open run), the refusals of an operation.
	 */
	static final List<Problem> START = List.of(MISSING_INPUT, READ_ONLY, START_CANCELED, START_DROPPED, TOO_LARGE,
			NOT_JSON, UNAVAILABLE, withSignal(UNAUTHENTICATED), withSignal(OPERATION_DISABLED),
			withSignal(ROLE_REQUIRED));

	Problem(int status, String code) {
		this(status, List.of(code));
	}

	private static Problem withSignal(Problem problem) {
		return new Problem(problem.status(), problem.codes().stream().map((c) -> c + " (with \"signal\")").toList());
	}

}
