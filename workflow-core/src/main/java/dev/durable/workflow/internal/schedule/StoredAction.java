package dev.durable.workflow.internal.schedule;

import java.time.Duration;

import dev.durable.workflow.RetryPolicy;

/**
 * A schedule's action as stored (bytea, engine JSON): the input already encoded with the
 * engine's payload converter.
 *
 * @param workflowType workflow type
 * @param input encoded input
 * @param workflowIdPrefix prefix of the workflow ids
 * @param taskQueue task queue, or {@code null}
 * @param executionTimeout execution timeout, or {@code null}
 * @param runTimeout run timeout, or {@code null}
 * @param retryPolicy retry policy, or {@code null}
 */
record StoredAction(String workflowType, byte[] input, String workflowIdPrefix, String taskQueue,
		Duration executionTimeout, Duration runTimeout, RetryPolicy retryPolicy) {

	/** The workflow id of the firing at a nominal time. */
	String workflowId(java.time.Instant nominal) {
		return this.workflowIdPrefix + "-" + nominal;
	}

}
