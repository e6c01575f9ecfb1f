package dev.durable.workflow.internal.runtime;

import java.time.Instant;

import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.internal.history.FailureInfo;

/**
 * Runs a local activity for a run's workflow task, on the node that runs the task, with
 * the attempts its options allow: given by the worker to each runner it builds (see
 * {@link LocalActivities}).
 */
@FunctionalInterface
public interface LocalActivityInvoker {

	/**
	 * For runners that only replay (queries, replay checks): they never run a local
	 * activity.
	 */
	LocalActivityInvoker NONE = (workflowId, runId, seq, activityType, input, options, now) -> {
		throw new IllegalStateException("Local activity " + activityType + " can only run in a workflow task");
	};

	/**
	 * Runs the activity's attempts until one succeeds or no other is allowed.
	 * @param input the arguments, packed as for an ordinary activity
	 * @param now the task's time, the activity's schedule time
	 * @return the encoded result, or the final failure
	 */
	Outcome run(String workflowId, java.util.UUID runId, long seq, String activityType, byte[] input,
			ActivityOptions options, Instant now);

	/** What a local activity ended with: its encoded result, or its final failure. */
	record Outcome(byte[] result, FailureInfo failure) {
	}

}
