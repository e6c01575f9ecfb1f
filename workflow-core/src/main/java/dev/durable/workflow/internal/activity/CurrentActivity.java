package dev.durable.workflow.internal.activity;

import dev.durable.workflow.activity.ActivityContext;

/** {@link ActivityContext#current()}: the attempt running on this thread. */
public final class CurrentActivity implements ActivityContext.Provider {

	@Override
	public ActivityContext current() {
		return ActivityAttempt.current();
	}

}
