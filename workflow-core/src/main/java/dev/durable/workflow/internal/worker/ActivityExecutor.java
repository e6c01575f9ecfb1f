package dev.durable.workflow.internal.worker;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Semaphore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import dev.durable.workflow.ActivityInfo;
import dev.durable.workflow.ActivityOptions;
import dev.durable.workflow.ApplicationFailure;
import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.TimeoutType;
import dev.durable.workflow.WorkflowEngineListener;
import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.registry.ActivityDefinition;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.runtime.ScheduledActivity;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.ActivityRepository;
import dev.durable.workflow.internal.store.StoredActivity;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Runs activities inline on the node that owns the run, bounded by a semaphore. Each failed
 * attempt and its retry time are persisted (fenced by the run's epoch) before the retry is
 * scheduled; the final outcome is handed to the run in memory and commits with its next task.
 */
final class ActivityExecutor {

	private static final Logger log = LoggerFactory.getLogger(ActivityExecutor.class);

	private static final Duration HEARTBEAT_PERSIST_INTERVAL = Duration.ofSeconds(1);

	private final ActivityRegistry registry;

	private final ActivityRepository store;

	private final Payloads payloads;

	private final Clock clock;

	private final WakeScheduler wake;

	private final UUID node;

	private final Semaphore permits;

	private final Listeners listeners;

	/** A virtual thread per activity attempt (or the task's own thread, see {@link Continuations}). */
	private final java.util.concurrent.Executor threads = (work) -> Thread.ofVirtual().name("durable-activity").start(work);

	ActivityExecutor(ActivityRegistry registry, ActivityRepository store, Payloads payloads, Clock clock,
			WakeScheduler wake, UUID node, int maxConcurrent, Listeners listeners) {
		this.registry = registry;
		this.store = store;
		this.payloads = payloads;
		this.clock = clock;
		this.wake = wake;
		this.node = node;
		this.permits = new Semaphore(maxConcurrent);
		this.listeners = listeners;
	}

	/** Starts (or schedules, when its retry time is ahead) a pending activity of an owned run. */
	void start(RunSlot slot, String workflowId, StoredActivity activity) {
		if (activity.nextAttemptAt().isAfter(this.clock.instant())) {
			// a task that cancels the activity meanwhile takes it out of the waiting retries
			slot.retryWaits(activity.seq());
			this.wake.schedule(activity.nextAttemptAt(), () -> {
				if (slot.takeWaitingRetry(activity.seq())) {
					launch(slot, workflowId, activity);
				}
			});
		}
		else {
			launch(slot, workflowId, activity);
		}
	}

	/**
	 * Takes over a pending activity of a run claimed from a node that stopped. An attempt that was
	 * due there may have run (or may have killed that node): it counts as a failed attempt, so
	 * the retry policy, its backoff and its maximum attempts apply to what happens next.
	 */
	void recover(RunSlot slot, String workflowId, StoredActivity activity) {
		if (activity.attempt() == 0) {
			// recreated by a reset and never attempted: its first attempt starts now
			start(slot, workflowId, new StoredActivity(activity.runId(), activity.seq(), activity.activityType(),
					activity.input(), activity.options(), 1, activity.scheduledAt(), activity.nextAttemptAt(), null,
					null));
			return;
		}
		if (activity.nextAttemptAt().isAfter(this.clock.instant())) {
			start(slot, workflowId, activity);
			return;
		}
		FailureInfo lost = FailureInfo.application("NodeLost", "the node running attempt " + activity.attempt()
				+ " stopped before reporting its outcome", false, null, null, null);
		attemptFailed(slot, workflowId, activity, activity.heartbeatDetails(), lost);
	}

	/**
	 * After a claim: takes over the activities the previous owner had scheduled that the run still
	 * waits for (see {@link #recover}). One with a row resumes from it (attempt, retry time,
	 * heartbeat); one without was on its first attempt, which starts from what the history
	 * recorded at its scheduling.
	 * @param pending the activities the run's history leaves pending
	 */
	void recoverPending(RunSlot slot, String workflowId, List<ScheduledActivity> pending) {
		java.util.Map<Long, StoredActivity> stored = new java.util.HashMap<>();
		for (StoredActivity activity : this.store.pending(slot.runId())) {
			stored.put(activity.seq(), activity);
		}
		for (ScheduledActivity scheduled : pending) {
			if (slot.isRunning(scheduled.seq())) {
				continue;
			}
			StoredActivity activity = stored.get(scheduled.seq());
			if (activity != null) {
				slot.activityStored(activity.seq());
			}
			else {
				activity = new StoredActivity(slot.runId(), scheduled.seq(), scheduled.name(), scheduled.args(),
						scheduled.options(), 1, scheduled.scheduledAt(), scheduled.scheduledAt(), null, null);
			}
			recover(slot, workflowId, activity);
		}
	}

	private void launch(RunSlot slot, String workflowId, StoredActivity activity) {
		if (slot.isDead() || slot.isRunning(activity.seq())) {
			return;
		}
		ActivityInfo info = new ActivityInfo(workflowId, activity.runId(), activity.seq(), activity.activityType(),
				activity.attempt(), activity.scheduledAt());
		ActivityAttempt attempt = new ActivityAttempt(info, activity.heartbeatDetails(), this.payloads,
				heartbeatSink(slot, activity), this.clock);
		slot.attemptStarted(activity.seq(), attempt);
		Continuations.runNextOr(this.threads, () -> {
			this.permits.acquireUninterruptibly();
			try {
				run(slot, activity, attempt);
			}
			finally {
				this.permits.release();
			}
		});
	}

	private java.util.function.Consumer<byte[]> heartbeatSink(RunSlot slot, StoredActivity activity) {
		Instant[] lastPersisted = { Instant.MIN };
		return (details) -> {
			Instant now = this.clock.instant();
			if (Duration.between(lastPersisted[0], now).compareTo(HEARTBEAT_PERSIST_INTERVAL) >= 0) {
				lastPersisted[0] = now;
				whileAwaited(slot, activity.seq(),
						() -> this.store.heartbeat(activity, details, now, this.node, slot.epoch()));
			}
		};
	}

	/**
	 * Writes an activity's row under the run's task lock, unless a committed task has ended the
	 * activity (canceled it) meanwhile: a row written after the commit that would have deleted it
	 * would outlive the activity. Task commits read {@link RunSlot#hasStoredActivity} under the
	 * same lock, so the commit that ends the activity deletes what this wrote.
	 * @return what the write returned, or false when the activity is no longer awaited
	 */
	private boolean whileAwaited(RunSlot slot, long seq, java.util.function.BooleanSupplier write) {
		slot.lockTask();
		try {
			WorkflowRunner runner = slot.runner();
			if (slot.isDead() || (runner != null && !runner.isActivityPending(seq))) {
				return false;
			}
			boolean written = write.getAsBoolean();
			if (written) {
				slot.activityStored(seq);
			}
			return written;
		}
		finally {
			slot.unlockTask();
		}
	}

	private void run(RunSlot slot, StoredActivity activity, ActivityAttempt attempt) {
		ActivityOptions options = activity.options();
		Instant started = this.clock.instant();
		armTimeouts(slot, activity, attempt, options, started);
		MDC.put("workflowId", attempt.info().workflowId());
		MDC.put("runId", activity.runId().toString());
		attempt.bind();
		Instant due = activity.nextAttemptAt();
		WorkflowEngineListener.Execution observed = this.listeners.activityStarted(attempt.info(),
				due.isBefore(started) ? Duration.between(due, started) : Duration.ZERO);
		Object result = null;
		Throwable failure = null;
		try {
			result = invoke(activity);
		}
		catch (Throwable ex) {
			failure = ex;
		}
		finally {
			observed.end(failure);
			attempt.unbind();
			MDC.clear();
		}
		if (!attempt.finish()) {
			return; // a timeout or a cancel already decided this attempt
		}
		Object outcome = result;
		Throwable thrown = failure;
		// the activity's own code is done: the task its outcome wakes may run on this thread
		Continuations.accepting(() -> reportOutcome(slot, activity, attempt, outcome, thrown));
	}

	private void reportOutcome(RunSlot slot, StoredActivity activity, ActivityAttempt attempt, Object result,
			Throwable thrown) {
		Throwable failure = thrown;
		slot.attemptEnded(activity.seq());
		if (failure == null) {
			try {
				ActivityDefinition definition = this.registry.find(activity.activityType());
				byte[] encoded = this.payloads.encode(result, definition.method().getGenericReturnType(),
						"the result of activity " + activity.activityType());
				slot.handOver(Event.activityCompleted(activity.seq(), encoded));
				return;
			}
			catch (RuntimeException ex) {
				failure = ApplicationFailure.newNonRetryableFailure(ex.getMessage(), "PayloadException");
			}
		}
		attemptFailed(slot, attempt.info().workflowId(), activity, attempt.lastHeartbeat(),
				Failures.toInfo(failure, this.payloads.converter()));
	}

	private Object invoke(StoredActivity activity) throws Throwable {
		ActivityDefinition definition = this.registry.find(activity.activityType());
		if (definition == null) {
			throw ApplicationFailure.newNonRetryableFailure("No activity of type '" + activity.activityType()
					+ "' is registered on this node", "UnknownActivityType");
		}
		Method method = definition.method();
		List<byte[]> parts = InternalJson.unpack(activity.input());
		Object[] args = new Object[method.getParameterCount()];
		for (int i = 0; i < args.length; i++) {
			byte[] part = (i < parts.size()) ? parts.get(i) : null;
			try {
				args[i] = this.payloads.decode(part, method.getGenericParameterTypes()[i],
						"argument " + i + " of activity " + activity.activityType());
			}
			catch (RuntimeException ex) {
				throw ApplicationFailure.newNonRetryableFailure(ex.getMessage(), "PayloadException");
			}
		}
		try {
			return method.invoke(definition.target(), args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException();
		}
	}

	private void armTimeouts(RunSlot slot, StoredActivity activity, ActivityAttempt attempt, ActivityOptions options,
			Instant started) {
		if (options.startToCloseTimeout() != null) {
			this.wake.schedule(started.plus(options.startToCloseTimeout()),
					() -> timeout(slot, activity, attempt, TimeoutType.START_TO_CLOSE));
		}
		if (options.scheduleToCloseTimeout() != null) {
			this.wake.schedule(activity.scheduledAt().plus(options.scheduleToCloseTimeout()),
					() -> timeout(slot, activity, attempt, TimeoutType.SCHEDULE_TO_CLOSE));
		}
		if (options.heartbeatTimeout() != null) {
			armHeartbeatCheck(slot, activity, attempt, options.heartbeatTimeout());
		}
	}

	private void armHeartbeatCheck(RunSlot slot, StoredActivity activity, ActivityAttempt attempt, Duration timeout) {
		this.wake.schedule(attempt.lastHeartbeatAt().plus(timeout), () -> {
			if (attempt.isFinished()) {
				return;
			}
			if (attempt.lastHeartbeatAt().plus(timeout).isAfter(this.clock.instant())) {
				armHeartbeatCheck(slot, activity, attempt, timeout);
			}
			else {
				timeout(slot, activity, attempt, TimeoutType.HEARTBEAT);
			}
		});
	}

	private void timeout(RunSlot slot, StoredActivity activity, ActivityAttempt attempt, TimeoutType type) {
		if (!attempt.finish()) {
			return;
		}
		attempt.cancel();
		slot.attemptEnded(activity.seq());
		attemptFailed(slot, attempt.info().workflowId(), activity, attempt.lastHeartbeat(),
				FailureInfo.timeout(type, "activity " + activity.activityType() + " attempt " + activity.attempt()
						+ " exceeded its " + type.name().toLowerCase().replace('_', '-') + " timeout", null));
	}

	/**
	 * After a task's commit: forgets the rows it deleted, and stops every running attempt and
	 * every waiting retry of an activity the workflow no longer awaits (its scope was canceled).
	 */
	void committed(RunSlot slot, WorkflowRunner runner, List<Long> deletedRows) {
		deletedRows.forEach(slot::activityRowDeleted);
		slot.keepWaitingRetries(runner::isActivityPending);
		for (Long seq : slot.runningActivities()) {
			if (!runner.isActivityPending(seq)) {
				cancel(slot, seq);
			}
		}
	}

	/** Cancels a running attempt: its outcome is dropped (the workflow already saw the cancel). */
	void cancel(RunSlot slot, long seq) {
		ActivityAttempt attempt = slot.attemptEnded(seq);
		if (attempt != null && attempt.finish()) {
			attempt.cancel();
		}
	}

	private void attemptFailed(RunSlot slot, String workflowId, StoredActivity activity, byte[] lastHeartbeat,
			FailureInfo failure) {
		if (slot.isDead()) {
			return;
		}
		ActivityOptions options = activity.options();
		RetryPolicy policy = options.retryPolicy();
		int number = activity.attempt();
		Instant now = this.clock.instant();
		Instant next = now.plus(policy.backoff(number));
		Instant deadline = (options.scheduleToCloseTimeout() != null)
				? activity.scheduledAt().plus(options.scheduleToCloseTimeout()) : null;
		boolean retryable = !failure.nonRetryable() && (failure.type() == null || !policy.nonRetryableErrorTypes().contains(failure.type()))
				&& policy.allowsAttempt(number + 1) && failure.timeoutType() != TimeoutType.SCHEDULE_TO_CLOSE
				&& (deadline == null || next.isBefore(deadline));
		if (!retryable) {
			FailureInfo cause = failure;
			if (deadline != null && !next.isBefore(deadline) && failure.timeoutType() == null) {
				cause = FailureInfo.timeout(TimeoutType.SCHEDULE_TO_CLOSE,
						"no time left for another attempt before the schedule-to-close timeout", failure);
			}
			this.listeners.activityFailed(info(workflowId, activity), failureType(failure), false);
			slot.handOver(Event.activityFailed(activity.seq(),
					FailureInfo.activity(activity.activityType(), activity.seq(), number, cause)));
			return;
		}
		byte[] failureJson = InternalJson.write(failure);
		boolean persisted = whileAwaited(slot, activity.seq(),
				() -> this.store.recordFailedAttempt(activity, next, failureJson, lastHeartbeat, this.node, slot.epoch()));
		if (!persisted) {
			log.debug("Run {} is no longer owned here; dropping the retry of activity {}", activity.runId(),
					activity.seq());
			return;
		}
		log.info("Activity {} (seq {}) of run {} failed attempt {}: {}; retrying at {}", activity.activityType(),
				activity.seq(), activity.runId(), number, failure.summary(), next);
		this.listeners.activityFailed(info(workflowId, activity), failureType(failure), true);
		StoredActivity retry = new StoredActivity(activity.runId(), activity.seq(), activity.activityType(),
				activity.input(), options, number + 1, activity.scheduledAt(), next, failureJson, lastHeartbeat);
		start(slot, workflowId, retry);
	}

	private static ActivityInfo info(String workflowId, StoredActivity activity) {
		return new ActivityInfo(workflowId, activity.runId(), activity.seq(), activity.activityType(),
				activity.attempt(), activity.scheduledAt());
	}

	private static String failureType(FailureInfo failure) {
		return (failure.timeoutType() != null) ? failure.timeoutType().name() : failure.type();
	}

	int available() {
		return this.permits.availablePermits();
	}

}
