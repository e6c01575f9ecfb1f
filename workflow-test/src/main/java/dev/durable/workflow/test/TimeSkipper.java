package dev.durable.workflow.test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowEngineListener;
import dev.durable.workflow.testsupport.EngineQuiescence;
import dev.durable.workflow.testsupport.SettableClock;

/**
 * Moves a {@link SettableClock} for tests: at real speed while activity code runs;
 * automatically, to the next timer, whenever every run waits for time while a caller is
 * blocked waiting for a result or an update outcome that has not come; or explicitly with
 * {@link #sleep(Duration)}.
 *
 * <p>
 * "Every run waits for time" (quiescence) means: no engine of the test runs a workflow
 * task, an activity attempt or a clock-driven action, and no open run has unseen input or
 * a due wake time (checked twice in memory around one database check, with no progress in
 * between). Time then jumps to the earliest wake time of the open runs (timer, start
 * delay, timeout, the retry of a failed workflow task), activity retry or schedule
 * firing. While any engine of the test runs activity code (an inline attempt or one
 * claimed from a task queue) the clock runs at real speed and never jumps, as Temporal's
 * test server does: a timer, a heartbeat or start-to-close timeout or a retry due during
 * a long activity fires at its time, as on a real clock, instead of when the activity
 * ends. This holds with automatic skipping off too: it is how the clock keeps time, not a
 * skip. A failed workflow task (an exception other than an {@code ApplicationFailure}, in
 * the main method or a handler) is retried after its backoff: a caller waiting for that
 * run's result or update has time jump to the retry, so a task that keeps failing moves
 * the clock by its growing backoff (at most 10 minutes) after each real attempt, until
 * the caller's wait ends.
 *
 * <p>
 * Used by {@link TestWorkflowEnvironment} and by the Spring Boot test support.
 */
public final class TimeSkipper implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(TimeSkipper.class);

	private static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(3);

	private static final Duration QUIESCENCE_WAIT = Duration.ofSeconds(60);

	private final SettableClock clock;

	private final Supplier<List<WorkflowEngine>> engines;

	private final AtomicLong progress = new AtomicLong();

	private final Object move = new Object();

	private final Thread thread;

	private volatile boolean autoSkipping = true;

	private volatile boolean closed;

	/**
	 * @param clock the clock the engines use
	 * @param engines the engines of the test (all on one schema and namespace), read at
	 * each check
	 */
	public TimeSkipper(SettableClock clock, Supplier<List<WorkflowEngine>> engines) {
		this.clock = clock;
		this.engines = engines;
		this.thread = Thread.ofPlatform().daemon().name("durable-time-skipper").unstarted(this::loop);
	}

	/** Starts automatic skipping (idempotent). */
	public TimeSkipper start() {
		if (this.thread.getState() == Thread.State.NEW) {
			this.thread.start();
		}
		return this;
	}

	/**
	 * A listener to add to every engine of the test: its callbacks mark progress, so a
	 * check that saw work start and end between two looks does not count as quiet.
	 */
	public WorkflowEngineListener listener() {
		return new WorkflowEngineListener() {
			@Override
			public Execution workflowTaskStarted(Run run) {
				TimeSkipper.this.progress.incrementAndGet();
				return (failure) -> TimeSkipper.this.progress.incrementAndGet();
			}

			@Override
			public Execution activityStarted(ActivityInfo activity, Duration scheduleToStart) {
				TimeSkipper.this.progress.incrementAndGet();
				// at once, not at the next check: the activity's first moment already
				// counts on the clock
				TimeSkipper.this.clock.startRunning();
				return (failure) -> TimeSkipper.this.progress.incrementAndGet();
			}
		};
	}

	/**
	 * The clock's time: what {@code Workflows.now()} is in a workflow task starting now.
	 */
	public Instant currentTime() {
		return this.clock.instant();
	}

	/** The clock. */
	public SettableClock clock() {
		return this.clock;
	}

	/**
	 * Turns automatic skipping on (the default) or off; {@link #sleep} works either way.
	 */
	public void setAutoTimeSkipping(boolean enabled) {
		this.autoSkipping = enabled;
	}

	public boolean isAutoTimeSkipping() {
		return this.autoSkipping;
	}

	/**
	 * Advances time by the duration, stopping at every wake time on the way (so a timer
	 * fires at its own time and the timers it leads to are honored), and returns once the
	 * runs are quiet again. While activity code runs, time runs at real speed: the sleep
	 * then waits in real time, and returns at the target time if an activity still runs
	 * then.
	 */
	public void sleep(Duration duration) {
		Instant target = this.clock.instant().plus(duration);
		BooleanSupplier reachedWhileRunning = () -> this.clock.isRunning() && !this.clock.instant().isBefore(target);
		while (true) {
			Instant next = awaitQuietOr(reachedWhileRunning);
			synchronized (this.move) {
				Instant now = this.clock.instant();
				if (!now.isBefore(target)) {
					break;
				}
				if (this.clock.isRunning()) {
					continue; // an activity started since the check: real time runs, no
								// jump
				}
				boolean stepToNext = next != null && next.isAfter(now) && next.isBefore(target);
				this.clock.set(stepToNext ? next : target);
			}
		}
		awaitQuietOr(reachedWhileRunning);
	}

	/**
	 * Waits until every run of the test waits for time (or for nothing), at most a
	 * minute.
	 * @return the next wake time, or {@code null} when none
	 */
	public @Nullable Instant awaitQuiet() {
		return awaitQuietOr(() -> false);
	}

	/** {@link #awaitQuiet()}, or until {@code enough} holds ({@code null} then). */
	private @Nullable Instant awaitQuietOr(BooleanSupplier enough) {
		Check quiet = awaitQuietCheck(enough);
		return (quiet != null) ? quiet.next() : null;
	}

	/**
	 * The first quiet check, or {@code null} when {@code enough} held first or the wait
	 * ran out.
	 */
	private @Nullable Check awaitQuietCheck(BooleanSupplier enough) {
		long deadline = System.nanoTime() + QUIESCENCE_WAIT.toNanos();
		while (!this.closed) {
			Check check = check();
			if (check.quiet()) {
				return check;
			}
			if (enough.getAsBoolean()) {
				return null;
			}
			if (System.nanoTime() > deadline) {
				log.warn("The runs under test did not become quiet within {}; moving on", QUIESCENCE_WAIT);
				return null;
			}
			LockSupport.parkNanos(CHECK_NANOS);
		}
		return null;
	}

	private record Check(boolean quiet, @Nullable Instant next) {
	}

	private static final Check BUSY = new Check(false, null);

	/** One quiescence check: memory, database, memory again, no progress in between. */
	Check check() {
		List<WorkflowEngine> all = this.engines.get();
		if (all.isEmpty() || !idle(all)) {
			return BUSY;
		}
		long seen = this.progress.get();
		WorkflowEngine first = all.get(0);
		Instant now = this.clock.instant();
		EngineQuiescence times = first.quiescence();
		if (times.anyDue(now)) {
			return BUSY;
		}
		Instant next = times.nextDue(now);
		if (!idle(all) || this.progress.get() != seen || !now.equals(this.clock.instant())) {
			return BUSY;
		}
		return new Check(true, next);
	}

	private static boolean idle(List<WorkflowEngine> engines) {
		for (WorkflowEngine engine : engines) {
			if (!engine.quiescence().isIdle()) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Whether a caller waits for a result or an update that has not come yet. Asked again
	 * after a quiet check: a caller woken during the check (its update was answered, its
	 * run closed) is about to go on, and a skip decided for it would move time under its
	 * next step. The engine completes a caller's wait before the task that answered it
	 * ends, so a check that saw every task ended also sees that caller as no longer
	 * blocked.
	 */
	private boolean someoneBlocked() {
		for (WorkflowEngine engine : this.engines.get()) {
			if (engine.quiescence().anyCallerBlocked()) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether activity code runs on any engine of the test: the clock must then run at
	 * real speed, so that what comes due during the activity (a timer that cancels it,
	 * its heartbeat timeout) comes when it would on a real clock.
	 */
	private boolean anyActivityInFlight() {
		for (WorkflowEngine engine : this.engines.get()) {
			if (engine.quiescence().anyActivityInFlight()) {
				return true;
			}
		}
		return false;
	}

	/** Runs the clock while activity code runs, stops it when none does. */
	void pace() {
		synchronized (this.move) {
			if (!this.closed && anyActivityInFlight()) {
				this.clock.startRunning();
			}
			else {
				this.clock.stopRunning();
			}
		}
	}

	private void loop() {
		while (!this.closed) {
			LockSupport.parkNanos(CHECK_NANOS);
			try {
				pace();
				if (!this.autoSkipping) {
					continue;
				}
				skipIfBlocked(() -> this.autoSkipping);
			}
			catch (RuntimeException ex) {
				if (!this.closed) {
					log.debug("Time skipping check failed: {}", ex.toString());
				}
			}
		}
	}

	/**
	 * One step of automatic skipping, for tests that take the steps themselves: when a
	 * caller is blocked, waits until every run waits for time (as {@link #sleep} does),
	 * then moves the clock to the next wake time if a caller is still blocked. The wait
	 * matters: the engines' background rounds (a flow-control queue round every poll
	 * interval) make a node busy for moments, and a step that met one would answer for
	 * that moment, not for the callers. The automatic loop does not wait: it checks again
	 * a few milliseconds later, and keeps the clock's pace meanwhile.
	 * @return whether the clock moved
	 */
	boolean skipIfBlocked() {
		if (!someoneBlocked()) {
			return false;
		}
		Check quiet = awaitQuietCheck(() -> false);
		return quiet != null && skipTo(quiet, () -> true);
	}

	/** One step of the automatic loop, unless skipping was turned off meanwhile. */
	private boolean skipIfBlocked(BooleanSupplier enabled) {
		if (!someoneBlocked()) {
			return false;
		}
		Check check = check();
		return check.quiet() && skipTo(check, enabled);
	}

	/**
	 * Moves the clock to the quiet check's next wake time if a caller is still blocked.
	 */
	private boolean skipTo(Check check, BooleanSupplier enabled) {
		if (check.next() == null) {
			return false;
		}
		synchronized (this.move) {
			if (!enabled.getAsBoolean() || this.clock.isRunning() || !someoneBlocked()
					|| !check.next().isAfter(this.clock.instant())) {
				return false;
			}
			log.debug("Skipping time from {} to {}", this.clock.instant(), check.next());
			this.clock.set(check.next());
			return true;
		}
	}

	@Override
	public void close() {
		this.closed = true;
		this.thread.interrupt();
		this.clock.stopRunning(); // the time the test ends at stays put for its last
									// assertions
	}

}
