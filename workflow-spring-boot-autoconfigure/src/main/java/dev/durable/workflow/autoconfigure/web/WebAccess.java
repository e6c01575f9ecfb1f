package dev.durable.workflow.autoconfigure.web;

/**
 * What the generated endpoints may do: their base path, and whether mutating endpoints are off
 * ({@code durable.workflow.web.read-only}).
 */
final class WebAccess {

	private final String basePath;

	private final boolean readOnly;

	WebAccess(String basePath, boolean readOnly) {
		this.basePath = basePath;
		this.readOnly = readOnly;
	}

	String basePath() {
		return this.basePath;
	}

	boolean isReadOnly() {
		return this.readOnly;
	}

	void checkWritable() {
		if (this.readOnly) {
			throw new ReadOnlyException();
		}
	}

	/** A mutating endpoint was called while the API is read-only. */
	static final class ReadOnlyException extends RuntimeException {

		ReadOnlyException() {
			super("The workflow API is read-only here (durable.workflow.web.read-only=true)");
		}

	}

}
