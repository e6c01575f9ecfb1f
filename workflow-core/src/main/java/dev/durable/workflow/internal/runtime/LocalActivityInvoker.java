package dev.durable.workflow.internal.runtime;

import dev.durable.workflow.ActivityInfo;

/**
 * Runs one attempt of a local activity for a run's workflow task, on the node that runs the task:
 * given by the worker to each runner it builds (see {@link LocalActivities}).
 */
@FunctionalInterface
public interface LocalActivityInvoker {

	/** For runners that only replay (queries, replay checks): they never run a local activity. */
	LocalActivityInvoker NONE = (info, activityType, input) -> {
		throw new IllegalStateException("Local activity " + activityType + " can only run in a workflow task");
	};

	/**
	 * Runs one attempt.
	 * @param info the activity, its attempt number and the task's time as its schedule time
	 * @param input the arguments, packed as for an ordinary activity
	 * @return the result, encoded as the activity's return type
	 * @throws Throwable what the activity threw
	 */
	byte[] attempt(ActivityInfo info, String activityType, byte[] input) throws Throwable;

}
