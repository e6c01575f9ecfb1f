package dev.durable.workflow.internal.taskqueue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.activity.ActivityInfo;

/**
 * What the node's listeners hear of task-queue attempts (metrics, tracing), and how its
 * interceptors wrap them.
 */
public interface AttemptObserver {

	/**
	 * Runs an attempt that waited {@code scheduleToStart}, observed and intercepted.
	 * @param headers the headers of the attempt's run (read only when an interceptor
	 * needs them)
	 * @param body the activity method
	 * @return what the activity method returned
	 * @throws Exception what it threw
	 */
	@Nullable Object run(ActivityInfo activity, Duration scheduleToStart, Supplier<Map<String, String>> headers,
			Callable<@Nullable Object> body) throws Exception;

	/** An attempt failed; {@code retrying}: another attempt follows. */
	void failed(ActivityInfo activity, String failureType, boolean retrying);

	AttemptObserver NONE = new AttemptObserver() {

		@Override
		public @Nullable Object run(ActivityInfo activity, Duration scheduleToStart,
				Supplier<Map<String, String>> headers, Callable<@Nullable Object> body) throws Exception {
			return body.call();
		}

		@Override
		public void failed(ActivityInfo activity, String failureType, boolean retrying) {
		}

	};

}
