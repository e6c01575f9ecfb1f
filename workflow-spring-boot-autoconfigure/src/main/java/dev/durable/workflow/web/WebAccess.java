package dev.durable.workflow.web;

/**
 * What the generated endpoints may do: their base path, and whether mutating endpoints are off
 * ({@code durable.workflow.web.read-only}).
 */
public final class WebAccess {

	private final String basePath;

	private final boolean readOnly;

	public WebAccess(String basePath, boolean readOnly) {
		this.basePath = basePath;
		this.readOnly = readOnly;
	}

	public String basePath() {
		return this.basePath;
	}

	public boolean isReadOnly() {
		return this.readOnly;
	}

	public void checkWritable() {
		if (this.readOnly) {
			throw new ReadOnlyException();
		}
	}

	/** A mutating endpoint was called while the API is read-only. */
	public static final class ReadOnlyException extends RuntimeException {

		ReadOnlyException() {
			super("The workflow API is read-only here (durable.workflow.web.read-only=true)");
		}

	}

}
