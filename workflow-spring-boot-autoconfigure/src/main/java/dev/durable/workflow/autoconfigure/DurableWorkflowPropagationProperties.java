package dev.durable.workflow.autoconfigure;

import java.util.ArrayList;
import java.util.List;

/**
 * What a start carries to the work of its run.
 * <p>
 * Bound to {@code durable.workflow.propagation.*}, as a part of
 * {@link DurableWorkflowProperties}.
 */
public class DurableWorkflowPropagationProperties {

	/**
	 * MDC keys whose values on the thread that starts a run are stored with the run and
	 * put in the MDC of its workflow tasks and activities (for example tenant or user).
	 * The trace context needs no key: with Micrometer Tracing it is carried by the
	 * observations.
	 */
	private List<String> mdcKeys = new ArrayList<>();

	public List<String> getMdcKeys() {
		return this.mdcKeys;
	}

	public void setMdcKeys(List<String> mdcKeys) {
		this.mdcKeys = mdcKeys;
	}

}
