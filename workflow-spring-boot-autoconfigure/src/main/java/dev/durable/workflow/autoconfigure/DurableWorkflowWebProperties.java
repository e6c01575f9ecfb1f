package dev.durable.workflow.autoconfigure;

/**
 * The generated REST endpoints.
 * <p>
 * Bound to {@code durable.workflow.web.*}, as a part of {@link DurableWorkflowProperties}.
 */
public class DurableWorkflowWebProperties {

	/**
	 * Whether to expose the generated REST endpoints (in a servlet web application).
	 */
	private boolean enabled = true;

	/**
	 * Path under which the endpoints are served.
	 */
	private String basePath = "/durable";

	/**
	 * Whether to turn off every mutating endpoint (start, signal, update, cancel,
	 * terminate, reset, schedule changes); reads and queries stay available.
	 */
	private boolean readOnly;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getBasePath() {
		return this.basePath;
	}

	public void setBasePath(String basePath) {
		this.basePath = basePath;
	}

	public boolean isReadOnly() {
		return this.readOnly;
	}

	public void setReadOnly(boolean readOnly) {
		this.readOnly = readOnly;
	}

}
