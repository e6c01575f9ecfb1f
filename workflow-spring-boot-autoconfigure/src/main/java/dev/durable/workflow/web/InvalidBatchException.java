package dev.durable.workflow.web;

/**
 * A batch request the endpoint refuses before anything starts: answered 400 with its
 * code, {@code INVALID_BATCH} (a field missing, unknown or of the wrong kind) or
 * {@code EMPTY_FILTER} (a filter that matches every run, sent without
 * {@code "confirmAll": true}).
 */
final class InvalidBatchException extends RuntimeException {

	static final String INVALID_BATCH = "INVALID_BATCH";

	static final String EMPTY_FILTER = "EMPTY_FILTER";

	private final String code;

	InvalidBatchException(String code, String message) {
		super(message);
		this.code = code;
	}

	InvalidBatchException(String message) {
		this(INVALID_BATCH, message);
	}

	String code() {
		return this.code;
	}

}
