package dev.durable.workflow.web;

import org.springframework.http.HttpStatus;

/**
 * A refused request of the event and stream endpoints, with its status and stable code:
 * {@code INVALID_KEY} (400), {@code INVALID_OFFSET} (400) or {@code EVENT_NOT_SET} (404:
 * not set within the wait, or never, the run being closed).
 */
final class OutputProblemException extends RuntimeException {

	static final String INVALID_KEY = "INVALID_KEY";

	static final String INVALID_OFFSET = "INVALID_OFFSET";

	static final String EVENT_NOT_SET = "EVENT_NOT_SET";

	private final HttpStatus status;

	private final String code;

	OutputProblemException(HttpStatus status, String code, String message) {
		super(message);
		this.status = status;
		this.code = code;
	}

	HttpStatus status() {
		return this.status;
	}

	String code() {
		return this.code;
	}

}
