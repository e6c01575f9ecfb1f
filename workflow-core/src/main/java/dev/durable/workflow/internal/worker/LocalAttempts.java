package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

import dev.durable.workflow.ActivityInfo;
import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.activity.ActivityInvoker;
import dev.durable.workflow.internal.runtime.LocalActivityInvoker;
import dev.durable.workflow.internal.store.RunChain;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.support.RunMdc;

/**
 * Runs the attempts of one run's local activities for its workflow tasks on this node: each on a
 * virtual thread of its own, which the task waits for, so that the activity's code is not workflow
 * code (it may call other beans, block, use {@link dev.durable.workflow.ActivityContext}) and goes
 * through the interceptors and metrics of ordinary activities. A local attempt has no row, no
 * heartbeat that is kept and no task token: it completes when its method returns.
 */
final class LocalAttempts implements LocalActivityInvoker {

	private final ActivityInvoker invoker;

	private final Payloads payloads;

	private final Clock clock;

	private final Listeners listeners;

	private final RunSlot slot;

	LocalAttempts(ActivityInvoker invoker, Payloads payloads, Clock clock, Listeners listeners, RunSlot slot) {
		this.invoker = invoker;
		this.payloads = payloads;
		this.clock = clock;
		this.listeners = listeners;
		this.slot = slot;
	}

	@Override
	public byte[] attempt(ActivityInfo info, String activityType, byte[] input) throws Throwable {
		FutureTask<byte[]> attempt = new FutureTask<>(() -> run(info, activityType, input));
		Thread.ofVirtual().name("durable-local-activity").start(attempt);
		try {
			return attempt.get();
		}
		catch (ExecutionException ex) {
			throw ex.getCause();
		}
	}

	private byte[] run(ActivityInfo info, String activityType, byte[] input) throws Exception {
		ActivityAttempt attempt = new ActivityAttempt(info, null, this.payloads, (details) -> {
		}, this.clock, () -> {
			throw new IllegalStateException("Local activity " + activityType
					+ " has no task token: it completes when its method returns");
		});
		RunMdc mdc = RunMdc.activity(info.workflowId(), info.runId(), ActivityExecutor.workflowType(this.slot),
				activityType, info.activityId(), info.attempt());
		attempt.bind();
		try {
			Object result = this.listeners.activity(info, Duration.ZERO, () -> RunChain.headers(this.slot.chain()),
					() -> this.invoker.call(activityType, input));
			return this.invoker.encodeResult(activityType, result);
		}
		finally {
			attempt.unbind();
			mdc.close();
		}
	}

}
