package dev.durable.workflow.autoconfigure;

/**
 * The dashboard page at {@code {web.base-path}/ui}.
 * <p>
 * Bound to {@code durable.workflow.dashboard.*}, as a part of
 * {@link DurableWorkflowProperties}.
 */
public class DurableWorkflowDashboardProperties {

	/**
	 * Whether to serve the dashboard (with the REST endpoints, in a servlet application).
	 */
	private boolean enabled = true;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
