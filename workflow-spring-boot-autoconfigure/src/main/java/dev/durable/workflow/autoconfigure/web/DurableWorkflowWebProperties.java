package dev.durable.workflow.autoconfigure.web;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the generated REST endpoints, bound to
 * {@code durable.workflow.web.*}. The dashboard they serve is switched by
 * {@code durable.workflow.dashboard.enabled}, read by
 * {@link DurableWorkflowWebAutoConfiguration}.
 */
@ConfigurationProperties("durable.workflow.web")
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

	/**
	 * Whether the operations (every mutating endpoint but a plain start: signal,
	 * signal-with-start, update, cancel, terminate, reset, schedule changes, activity
	 * completion) and the dashboard's actions answer to every caller that reaches them.
	 * Off by default: they answer 403 OPERATION_DISABLED unless this is true or a
	 * required role is set.
	 */
	private boolean operationsEnabled;

	/**
	 * Role a caller needs for the operations, such as DURABLE_OPERATOR (with Spring
	 * Security, the authority ROLE_DURABLE_OPERATOR). When set, the operations are on for
	 * callers with it: 401 for a caller not authenticated, 403 ROLE_REQUIRED for one
	 * without it.
	 */
	private @Nullable String requiredRole;

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

	public boolean isOperationsEnabled() {
		return this.operationsEnabled;
	}

	public void setOperationsEnabled(boolean operationsEnabled) {
		this.operationsEnabled = operationsEnabled;
	}

	public @Nullable String getRequiredRole() {
		return this.requiredRole;
	}

	public void setRequiredRole(@Nullable String requiredRole) {
		this.requiredRole = requiredRole;
	}

}
