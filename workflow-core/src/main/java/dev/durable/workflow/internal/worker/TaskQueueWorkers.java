package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.queue.QueueAdmission;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.store.Stores;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.taskqueue.ActivityTaskListeners;
import dev.durable.workflow.internal.taskqueue.ActivityTaskWorker;
import dev.durable.workflow.internal.taskqueue.AttemptObserver;
import dev.durable.workflow.internal.taskqueue.TaskQueueDatabase;
import dev.durable.workflow.internal.taskqueue.TaskQueueSettings;

/**
 * Builds a node's {@link ActivityTaskWorker}, its attempts heard by the node's listeners.
 */
final class TaskQueueWorkers {

	private TaskQueueWorkers() {
	}

	static ActivityTaskWorker create(EngineSettings config, ActivityRegistry registry, Stores stores, Payloads payloads,
			Clock clock, UUID nodeId, LongSupplier incarnation, Listeners listeners, BiConsumer<UUID, UUID> wakeRun,
			QueueAdmission admission, Consumer<String> slotFreed) {
		return new ActivityTaskWorker(
				new TaskQueueSettings(config.namespace(), config.activityTaskQueues(), config.maxConcurrentActivities(),
						config.pollInterval(), config.deadAfter()),
				new TaskQueueDatabase(stores.jdbc(), stores.tx(), config.schema()), registry, payloads, clock, nodeId,
				incarnation, admission, new ActivityTaskListeners(observer(listeners), wakeRun, slotFreed));
	}

	private static AttemptObserver observer(Listeners listeners) {
		return new AttemptObserver() {

			@Override
			public @Nullable Object run(ActivityInfo activity, Duration scheduleToStart,
					Supplier<Map<String, String>> headers, Callable<@Nullable Object> body) throws Exception {
				return listeners.activity(activity, scheduleToStart, headers, body);
			}

			@Override
			public void failed(ActivityInfo activity, String failureType, boolean retrying) {
				listeners.activityFailed(activity, failureType, retrying);
			}

		};
	}

}
