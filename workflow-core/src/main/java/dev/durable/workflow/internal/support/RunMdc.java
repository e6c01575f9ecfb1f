package dev.durable.workflow.internal.support;

import java.util.UUID;

import org.slf4j.MDC;

/**
 * The MDC entries set while the engine runs a run's code on a thread, so that the
 * engine's logs and the application's (workflow code, activities) name the run:
 * {@value #WORKFLOW_ID}, {@value #RUN_ID}, {@value #WORKFLOW_TYPE}, and during an
 * activity attempt also {@value #ACTIVITY_TYPE}, {@value #ACTIVITY_ID} (its sequence
 * number in the run) and {@value #ATTEMPT}. Closing restores what the thread's MDC held
 * for these keys before, so that a thread that is reused (a caller's, or a pool's) keeps
 * its own entries.
 */
public final class RunMdc implements AutoCloseable {

	public static final String WORKFLOW_ID = "workflowId";

	public static final String RUN_ID = "runId";

	public static final String WORKFLOW_TYPE = "workflowType";

	public static final String ACTIVITY_TYPE = "activityType";

	public static final String ACTIVITY_ID = "activityId";

	public static final String ATTEMPT = "activityAttempt";

	private static final String[] WORKFLOW_KEYS = { WORKFLOW_ID, RUN_ID, WORKFLOW_TYPE };

	private static final String[] ACTIVITY_KEYS = { WORKFLOW_ID, RUN_ID, WORKFLOW_TYPE, ACTIVITY_TYPE, ACTIVITY_ID,
			ATTEMPT };

	private final String[] keys;

	private final String[] previous;

	private RunMdc(String[] keys, String... values) {
		this.keys = keys;
		this.previous = new String[keys.length];
		for (int i = 0; i < keys.length; i++) {
			this.previous[i] = MDC.get(keys[i]);
			if (values[i] != null) {
				MDC.put(keys[i], values[i]);
			}
			else {
				MDC.remove(keys[i]);
			}
		}
	}

	/**
	 * Sets the entries of a workflow task of the run. @param workflowType the type, or
	 * {@code null}
	 */
	public static RunMdc workflow(String workflowId, UUID runId, String workflowType) {
		return new RunMdc(WORKFLOW_KEYS, workflowId, runId.toString(), workflowType);
	}

	/**
	 * Sets the entries of an activity attempt. @param workflowType its run's type, or
	 * {@code null}
	 */
	public static RunMdc activity(String workflowId, UUID runId, String workflowType, String activityType, long seq,
			int attempt) {
		return new RunMdc(ACTIVITY_KEYS, workflowId, runId.toString(), workflowType, activityType, Long.toString(seq),
				Integer.toString(attempt));
	}

	/** Puts back what the thread's MDC held for these keys before. */
	@Override
	public void close() {
		for (int i = 0; i < this.keys.length; i++) {
			if (this.previous[i] != null) {
				MDC.put(this.keys[i], this.previous[i]);
			}
			else {
				MDC.remove(this.keys[i]);
			}
		}
	}

}
