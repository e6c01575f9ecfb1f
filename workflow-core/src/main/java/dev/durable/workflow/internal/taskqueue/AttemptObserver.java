package dev.durable.workflow.internal.taskqueue;

import java.time.Duration;
import java.util.function.Consumer;

import dev.durable.workflow.ActivityInfo;

/** What the node's listeners hear of task-queue attempts (metrics, tracing). */
public interface AttemptObserver {

	/** An attempt started after waiting {@code scheduleToStart}; the consumer gets its failure or {@code null}. */
	Consumer<Throwable> started(ActivityInfo activity, Duration scheduleToStart);

	/** An attempt failed; {@code retrying}: another attempt follows. */
	void failed(ActivityInfo activity, String failureType, boolean retrying);

	AttemptObserver NONE = new AttemptObserver() {

		@Override
		public Consumer<Throwable> started(ActivityInfo activity, Duration scheduleToStart) {
			return (failure) -> {
			};
		}

		@Override
		public void failed(ActivityInfo activity, String failureType, boolean retrying) {
		}

	};

}
