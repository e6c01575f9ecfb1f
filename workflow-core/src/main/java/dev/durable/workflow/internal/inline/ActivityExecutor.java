package dev.durable.workflow.internal.inline;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.TimeoutType;
import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.activity.ActivityInvoker;
import dev.durable.workflow.internal.activity.TransactionalSettings;
import dev.durable.workflow.internal.execution.Continuations;
import dev.durable.workflow.internal.execution.WakeScheduler;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.node.NodeLease;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.runtime.ActivityAttempts;
import dev.durable.workflow.internal.runtime.LocalActivityInvoker;
import dev.durable.workflow.internal.runtime.ScheduledActivity;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.ActivityPauses;
import dev.durable.workflow.internal.store.ActivityRepository;
import dev.durable.workflow.internal.store.RunChain;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.StoredActivity;
import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.support.RunMdc;

/**
 * Runs activities inline on the node that owns the run, bounded by a semaphore. Each
 * failed attempt and its retry time are persisted (fenced by the run's epoch) before the
 * retry is scheduled; the final outcome is handed to the run in memory and commits with
 * its next task.
 */
public final class ActivityExecutor {

	private static final Logger log = LoggerFactory.getLogger(ActivityExecutor.class);

	private final ActivityInvoker invoker;

	private final ActivityRepository store;

	private final InlineActivityRows rows;

	private final Payloads payloads;

	private final Clock clock;

	private final WakeScheduler wake;

	private final UUID node;

	private final Semaphore permits;

	private final Listeners listeners;

	private final RecoverInlineActivities recovery;

	private final AttemptFailures failures;

	private final TransactionalAttempt transactional;

	/**
	 * Attempts launched and not yet ended (a launched attempt may still wait for its
	 * thread or permit).
	 */
	private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();

	/** Fenced, the node starts no attempt (see {@link NodeLease}). */
	private final NodeLease lease;

	/**
	 * Set when the node begins to stop: no attempt starts from then on (see
	 * {@link #drain}).
	 */
	private volatile boolean draining;

	/**
	 * A virtual thread per activity attempt (or the task's own thread, see
	 * {@link Continuations}).
	 */
	private final java.util.concurrent.Executor threads = (
			work) -> Thread.ofVirtual().name("durable-activity").start(work);

	public ActivityExecutor(ActivityRegistry registry, ActivityRepository store, Payloads payloads, Clock clock,
			WakeScheduler wake, UUID node, int maxConcurrent, Listeners listeners, TransactionalSettings transactions,
			NodeLease lease) {
		this.lease = lease;
		this.invoker = new ActivityInvoker(registry, payloads);
		this.store = store;
		this.rows = new InlineActivityRows(store, clock, node);
		this.transactional = new TransactionalAttempt(transactions, registry, this.invoker, store, this.rows, node);
		this.payloads = payloads;
		this.clock = clock;
		this.wake = wake;
		this.node = node;
		this.permits = new Semaphore(maxConcurrent);
		this.listeners = listeners;
		this.recovery = new RecoverInlineActivities(this, store, payloads, clock);
		this.failures = new AttemptFailures(this.rows, clock, listeners, this.threads, this::start);
	}

	/**
	 * Starts (or schedules, when its retry time is ahead) a pending activity of an owned
	 * run.
	 */
	public void start(InlineRun slot, String workflowId, StoredActivity activity) {
		if (activity.nextAttemptAt().isAfter(this.clock.instant())) {
			// a task that cancels the activity meanwhile takes it out of the waiting
			// retries
			slot.retryWaits(activity.seq());
			this.wake.schedule(activity.nextAttemptAt(), () -> {
				if (!slot.takeWaitingRetry(activity.seq())) {
					return;
				}
				// the run may have been paused since the task that scheduled the retry
				if (this.store.runPaused(activity.runId())) {
					slot.heldByPause(() -> launchUnlessPaused(slot, workflowId, activity));
					return;
				}
				// and the activity paused, or given new options, meanwhile
				StoredActivity controlled = controlled(activity);
				if (controlled != null) {
					launch(slot, workflowId, controlled);
				}
			});
		}
		else if (activity.attempt() == 1 && activity.lastFailure() == null && activity.heartbeatDetails() == null) {
			// a first attempt, just scheduled: no operator has acted on it yet
			launch(slot, workflowId, activity);
		}
		else {
			StoredActivity controlled = controlled(activity);
			if (controlled != null) {
				launch(slot, workflowId, controlled);
			}
		}
	}

	/**
	 * The activity as operators left it: {@code null} while it is paused (its unpause or
	 * reset starts it again, see {@link #resume}), else with the options set for the
	 * attempts to come.
	 */
	private StoredActivity controlled(StoredActivity activity) {
		ActivityPauses.Control control = this.store.pauses().control(activity.runId(), activity.seq());
		if (control == null) {
			return activity;
		}
		if (control.paused()) {
			log.info("Activity {} (seq {}) of run {} is paused ({}); its attempt {} waits for the unpause",
					activity.activityType(), activity.seq(), activity.runId(), control.pauseReason(),
					activity.attempt());
			return null;
		}
		return (control.options() != null) ? withOptions(activity, control.options()) : activity;
	}

	/**
	 * A launch the run's pause held back, at the unpause: the activity itself may have
	 * been paused, or given new options, meanwhile.
	 */
	private void launchUnlessPaused(InlineRun slot, String workflowId, StoredActivity activity) {
		StoredActivity controlled = controlled(activity);
		if (controlled != null) {
			launch(slot, workflowId, controlled);
		}
	}

	private static StoredActivity withOptions(StoredActivity activity, ActivityOptions options) {
		return new StoredActivity(activity.runId(), activity.seq(), activity.activityType(), activity.input(), options,
				activity.attempt(), activity.scheduledAt(), activity.nextAttemptAt(), activity.lastFailure(),
				activity.heartbeatDetails());
	}

	/**
	 * After an operator unpaused, reset or gave new options to an inline activity of the
	 * run (its task read the operation from the inbox): an attempt that runs goes on (its
	 * failure takes in what changed); otherwise the next attempt starts from the
	 * activity's row, now or at its retry time, unless it is paused. A pending reset is
	 * taken in first: attempt 1, at once.
	 */
	public void resume(InlineRun slot, String workflowId, long seq) {
		if (slot.isDead() || slot.isRunning(seq)) {
			return;
		}
		ActivityPauses pauses = this.store.pauses();
		ActivityPauses.Control control = pauses.control(slot.runId(), seq);
		if (control != null && control.paused()) {
			return;
		}
		if (control != null && control.resetPending()) {
			pauses.resetInline(slot.runId(), seq, control.dropDetails(), this.clock.instant(), this.node, slot.epoch());
		}
		for (StoredActivity activity : this.store.pending(slot.runId())) {
			// a task-queue activity's row is claimable again without the owner
			if (activity.seq() == seq && activity.attempt() > 0 && !activity.options().onTaskQueue()) {
				// a retry waiting for its time starts from the row instead
				slot.takeWaitingRetry(seq);
				slot.activityStored(seq);
				start(slot, workflowId, activity);
			}
		}
	}

	/**
	 * After a claim: takes over the activities the previous owner had scheduled that the
	 * run still waits for (see {@link RecoverInlineActivities}).
	 * @param pending the activities the run's history leaves pending
	 */
	public void recoverPending(InlineRun slot, String workflowId, List<ScheduledActivity> pending) {
		this.recovery.recoverPending(slot, workflowId, pending);
	}

	/**
	 * The node begins to stop: attempts under way run on, but none starts from now on,
	 * not even one a task committed during the stop scheduled; the node that takes the
	 * run over starts it.
	 */
	public void drain() {
		this.draining = true;
	}

	/** How many attempts are launched and not yet ended. */
	public int inFlight() {
		return this.inFlight.get();
	}

	private void launch(InlineRun slot, String workflowId, StoredActivity activity) {
		if (slot.isDead() || slot.isRunning(activity.seq()) || this.lease.isFenced()) {
			return;
		}
		if (this.draining) {
			this.rows.notStarted(slot, activity);
			return;
		}
		if (slot.holdWhilePaused(() -> launchUnlessPaused(slot, workflowId, activity))) {
			return; // a paused run starts no attempt: this one starts at the unpause
		}
		ActivityInfo info = new ActivityInfo(workflowId, activity.runId(), activity.seq(), activity.activityType(),
				activity.attempt(), activity.scheduledAt());
		InlineActivityRows.AttemptToken token = this.rows.token(slot, activity);
		ActivityAttempt[] self = new ActivityAttempt[1];
		ActivityAttempt attempt = new ActivityAttempt(info, activity.heartbeatDetails(), this.payloads,
				this.rows.heartbeatSink(slot, activity, () -> self[0]), this.clock, token);
		self[0] = attempt;
		slot.attemptStarted(activity.seq(), attempt);
		this.inFlight.incrementAndGet();
		Continuations.runNextOr(this.threads, () -> {
			try {
				this.permits.acquireUninterruptibly();
				try {
					if (this.draining) {
						// the stop began while this attempt waited for its thread or a
						// permit
						slot.attemptEnded(activity.seq());
						this.rows.notStarted(slot, activity);
						return;
					}
					run(slot, activity, attempt, token);
				}
				finally {
					this.permits.release();
				}
			}
			finally {
				this.inFlight.decrementAndGet();
			}
		});
	}

	private void run(InlineRun slot, StoredActivity activity, ActivityAttempt attempt,
			InlineActivityRows.AttemptToken token) {
		ActivityOptions options = activity.options();
		Instant started = this.clock.instant();
		armTimeouts(slot, activity, attempt, options, started, null);
		RunMdc mdc = RunMdc.activity(attempt.info().workflowId(), activity.runId(), workflowType(slot),
				activity.activityType(), activity.seq(), activity.attempt());
		attempt.bind();
		Instant due = activity.nextAttemptAt();
		Object result = null;
		Throwable failure = null;
		TransactionalAttempt.Run transaction = this.transactional.begin(slot, activity, attempt);
		try {
			result = this.listeners.activity(attempt.info(), due.isBefore(started) ? Duration
				.between(due, started) : Duration.ZERO, () -> RunChain.headers(slot.chain()), (transaction == null)
						? () -> this.invoker.call(activity.activityType(), activity.input())
						: () -> transaction.call(() -> this.invoker.call(activity.activityType(), activity.input())));
		}
		catch (Throwable ex) {
			failure = ex;
		}
		finally {
			attempt.unbind();
			mdc.close();
		}
		if (failure == null && transaction == null && attempt.completesAsynchronously() && !attempt.isFinished()) {
			// the completion client decides; its timeouts stay armed
			if (!this.rows.awaitCompletion(slot, activity, token.inRow())) {
				log.debug("Activity {} (seq {}) of run {} was completed or ended before its method returned",
						activity.activityType(), activity.seq(), activity.runId());
			}
			return;
		}
		if (!((transaction != null) ? transaction.decides() : attempt.finish())) {
			return; // a timeout, a cancel or the completion client already decided this
					// attempt
		}
		Object outcome = result;
		byte[] committed = (transaction != null) ? transaction.committed() : null;
		// once committed, the result stands, whatever an interceptor threw after the
		// commit
		Throwable thrown = (committed != null) ? null : failure;
		// the activity's own code is done: the task its outcome wakes may run on this
		// thread
		Continuations
			.accepting(() -> reportOutcome(slot, activity, attempt, outcome, committed, thrown, token.inRow()));
	}

	/**
	 * @param committed the result a transactional attempt committed, or {@code null}
	 */
	private void reportOutcome(InlineRun slot, StoredActivity activity, ActivityAttempt attempt, Object result,
			byte[] committed, Throwable thrown, UUID tokenInRow) {
		Throwable failure = thrown;
		slot.attemptEnded(activity.seq());
		if (failure == null) {
			try {
				slot.handOver(Event.activityCompleted(activity.seq(),
						(committed != null) ? committed : this.invoker.encodeResult(activity.activityType(), result)));
				return;
			}
			catch (ApplicationFailure ex) {
				failure = ex;
			}
		}
		attemptFailed(slot, attempt.info().workflowId(), activity, attempt.lastHeartbeat(),
				Failures.toInfo(failure, this.payloads.converter()), tokenInRow);
	}

	/**
	 * After the completion client failed an asynchronously completed attempt that
	 * retries: the waiting attempt ends, and the next one starts from the row at its
	 * retry time.
	 */
	public void retryFromRow(InlineRun slot, String workflowId, long seq) {
		ActivityAttempt waiting = slot.attemptEnded(seq);
		if (waiting != null) {
			waiting.finish();
		}
		for (StoredActivity activity : this.store.pending(slot.runId())) {
			if (activity.seq() == seq) {
				slot.activityStored(seq);
				start(slot, workflowId, activity);
			}
		}
	}

	/**
	 * @param tokenInRow the token of an attempt that waits for the completion client
	 * since before a takeover, else {@code null} (a running attempt's token is read when
	 * it fails)
	 */
	void armTimeouts(InlineRun slot, StoredActivity activity, ActivityAttempt attempt, ActivityOptions options,
			Instant started, UUID tokenInRow) {
		if (options.startToCloseTimeout() != null) {
			this.wake.schedule(started.plus(options.startToCloseTimeout()),
					() -> timeout(slot, activity, attempt, TimeoutType.START_TO_CLOSE, tokenInRow));
		}
		if (options.scheduleToCloseTimeout() != null) {
			this.wake.schedule(activity.scheduledAt().plus(options.scheduleToCloseTimeout()),
					() -> timeout(slot, activity, attempt, TimeoutType.SCHEDULE_TO_CLOSE, tokenInRow));
		}
		if (options.heartbeatTimeout() != null) {
			armHeartbeatCheck(slot, activity, attempt, options.heartbeatTimeout(), tokenInRow);
		}
	}

	private void armHeartbeatCheck(InlineRun slot, StoredActivity activity, ActivityAttempt attempt, Duration timeout,
			UUID tokenInRow) {
		this.wake.schedule(attempt.lastHeartbeatAt().plus(timeout),
				() -> checkHeartbeat(slot, activity, attempt, timeout, tokenInRow));
	}

	private void checkHeartbeat(InlineRun slot, StoredActivity activity, ActivityAttempt attempt, Duration timeout,
			UUID tokenInRow) {
		if (attempt.isFinished() || slot.isDead()) {
			return;
		}
		// the time is read before the last heartbeat: one that comes while the row is
		// read, or the check is slow, is then later than what it is compared with, never
		// judged late against a clock read after it
		Instant now = this.clock.instant();
		if (attempt.completesAsynchronously()) {
			// the completion client's heartbeats reach the row, not this node
			Instant recorded;
			try {
				recorded = this.store.lastHeartbeatAt(activity.runId(), activity.seq());
			}
			catch (DataAccessException ex) {
				// without the row the attempt may not be timed out: look again, by
				// wall-clock time,
				// as a failed attempt's retry is recorded again (nothing else would check
				// it)
				log.warn("Could not read the last heartbeat of activity {} (seq {}) of run {}; looking again in {}: {}",
						activity.activityType(), activity.seq(), activity.runId(), AttemptFailures.MAX_RECORD_RETRY,
						Errors.rootMessage(ex));
				CompletableFuture
					.delayedExecutor(AttemptFailures.MAX_RECORD_RETRY.toMillis(), TimeUnit.MILLISECONDS, this.threads)
					.execute(() -> checkHeartbeat(slot, activity, attempt, timeout, tokenInRow));
				return;
			}
			if (recorded != null) {
				attempt.heartbeatRecordedAt(recorded);
			}
		}
		if (attempt.lastHeartbeatAt().plus(timeout).isAfter(now)) {
			armHeartbeatCheck(slot, activity, attempt, timeout, tokenInRow);
		}
		else {
			timeout(slot, activity, attempt, TimeoutType.HEARTBEAT, tokenInRow);
		}
	}

	private void timeout(InlineRun slot, StoredActivity activity, ActivityAttempt attempt, TimeoutType type,
			UUID tokenInRow) {
		if (!attempt.finish()) {
			return;
		}
		attempt.cancel();
		slot.attemptEnded(activity.seq());
		attemptFailed(slot, attempt.info().workflowId(), activity, attempt.lastHeartbeat(),
				FailureInfo.timeout(type,
						"activity " + activity.activityType() + " attempt " + activity.attempt() + " exceeded its "
								+ type.name().toLowerCase().replace('_', '-') + " timeout",
						null),
				(tokenInRow != null) ? tokenInRow : tokenOf(attempt));
	}

	/**
	 * After a task's commit: forgets the rows it deleted, and stops every running attempt
	 * and every waiting retry of an activity the workflow no longer awaits (its scope was
	 * canceled).
	 */
	public void committed(InlineRun slot, WorkflowRunner runner, List<Long> deletedRows) {
		deletedRows.forEach(slot::activityRowDeleted);
		slot.keepWaitingRetries(runner::isActivityPending);
		for (Long seq : slot.runningActivities()) {
			if (!runner.isActivityPending(seq)) {
				cancel(slot, seq);
			}
		}
	}

	/**
	 * Cancels a running attempt: its outcome is dropped (the workflow already saw the
	 * cancel).
	 */
	public void cancel(InlineRun slot, long seq) {
		ActivityAttempt attempt = slot.attemptEnded(seq);
		if (attempt != null && attempt.finish()) {
			attempt.cancel();
		}
	}

	/**
	 * Counts the attempts of an activity the run's workflow cancels: an inline attempt
	 * running here counts with its number; otherwise the activity's row says (a
	 * task-queue attempt claimed by any node, an attempt awaiting the completion client,
	 * retries waiting), read only then.
	 */
	public ActivityAttempts attempts(InlineRun slot) {
		return (seq) -> {
			ActivityAttempt running = slot.runningAttempt(seq);
			return (running != null) ? running.info().attempt() : this.store.attemptsMade(slot.runId(), seq);
		};
	}

	/**
	 * What runs the local activities of the run's workflow tasks (see
	 * {@link LocalAttempts}).
	 */
	public LocalActivityInvoker local(InlineRun slot) {
		return new LocalAttempts(this.invoker, this.payloads, this.clock, this.listeners, slot);
	}

	/** A failed attempt: see {@link AttemptFailures}. */
	void attemptFailed(InlineRun slot, String workflowId, StoredActivity activity, byte[] lastHeartbeat,
			FailureInfo failure, UUID tokenInRow) {
		this.failures.failed(slot, workflowId, activity, lastHeartbeat, failure, tokenInRow);
	}

	/**
	 * The token an inline attempt's row holds, or {@code null} when it never gave one
	 * out.
	 */
	private static UUID tokenOf(ActivityAttempt attempt) {
		return (attempt.tokenSource() instanceof InlineActivityRows.AttemptToken token) ? token.inRow() : null;
	}

	static ActivityInfo info(String workflowId, StoredActivity activity) {
		return new ActivityInfo(workflowId, activity.runId(), activity.seq(), activity.activityType(),
				activity.attempt(), activity.scheduledAt());
	}

	/** The run's workflow type, for the logs, as far as the slot knows it. */
	static String workflowType(InlineRun slot) {
		WorkflowRunner runner = slot.runner();
		if (runner != null) {
			return runner.identity().workflowType();
		}
		RunRow row = slot.cachedRow();
		return (row != null) ? row.workflowType() : null;
	}

	public int available() {
		return this.permits.availablePermits();
	}

}
