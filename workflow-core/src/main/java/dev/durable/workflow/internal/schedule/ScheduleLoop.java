package dev.durable.workflow.internal.schedule;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.internal.client.Debouncer;
import dev.durable.workflow.internal.node.NodeService;
import dev.durable.workflow.internal.support.BackgroundThreads;
import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.testsupport.SettableClock;

/**
 * The firing loop of a worker node: steps every due schedule and fires every due debounce
 * window, then sleeps until the earliest next time, the poll interval (buffered firings
 * wait for runs that may close on any node), a local change or a move of a
 * {@link SettableClock}. Every worker node runs one; the steps' compare-and-set and
 * firing keys make each firing happen once.
 */
public final class ScheduleLoop implements NodeService, AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(ScheduleLoop.class);

	private static final int BATCH = 50;

	private final ScheduleRepository repository;

	private final ScheduleFirer firer;

	private final Object signal = new Object();

	private final Runnable clockListener = this::wakeUp;

	private boolean requested;

	private volatile boolean running;

	private Thread thread;

	private final Clock clock;

	private final String namespace;

	private final Duration pollInterval;

	private final Debouncer debouncer;

	/**
	 * @param debouncer the debounced starts, whose due windows the loop fires too
	 */
	public ScheduleLoop(ScheduleRepository repository, ScheduleFirer firer, Clock clock, String namespace,
			Duration pollInterval, Debouncer debouncer) {
		this.debouncer = debouncer;
		this.repository = repository;
		this.firer = firer;
		this.clock = clock;
		this.namespace = namespace;
		this.pollInterval = pollInterval;
	}

	@Override
	public void start() {
		this.running = true;
		if (this.clock instanceof SettableClock settable) {
			settable.onChange(this.clockListener);
		}
		this.thread = Thread.ofPlatform().daemon().name("durable-schedules").start(this::loop);
	}

	/** Steps the schedules soon (a schedule changed here, or the clock moved). */
	public void wakeUp() {
		synchronized (this.signal) {
			this.requested = true;
			this.signal.notifyAll();
		}
	}

	private void loop() {
		while (this.running) {
			long waitMillis = this.pollInterval.toMillis();
			try {
				tick();
				this.debouncer.fireDue();
				Instant earliest = earlier(this.repository.earliestDue(this.namespace), this.debouncer.earliestDue());
				if (earliest != null) {
					long untilDue = Duration.between(this.clock.instant(), earliest).toMillis();
					// at least a moment: a due row may be held by another node's step
					waitMillis = Math.max(10, Math.min(waitMillis, untilDue));
				}
			}
			catch (RuntimeException ex) {
				if (Errors.fenced(ex)) {
					log.debug("Skipped while the node is fenced: {}", Errors.rootMessage(ex));
				}
				else {
					log.warn("Firing schedules failed: {}", Errors.rootMessage(ex));
				}
			}
			synchronized (this.signal) {
				try {
					if (!this.requested && waitMillis > 0) {
						this.signal.wait(waitMillis);
					}
					this.requested = false;
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}
	}

	private static Instant earlier(Instant a, Instant b) {
		return (a == null) ? b : (b == null || a.isBefore(b)) ? a : b;
	}

	/**
	 * Steps the schedules due now.
	 * @return how many steps committed
	 */
	public int tick() {
		String namespace = this.namespace;
		int stepped = 0;
		for (String scheduleId : this.repository.dueIds(namespace, this.clock.instant(), BATCH)) {
			// the row is locked (SKIP LOCKED) and re-checked inside the step's
			// transaction
			try {
				List<?> results = this.firer.fire(
						() -> this.repository.lockDue(namespace, scheduleId, this.clock.instant()), true, List.of(),
						null);
				if (results != null) {
					stepped++;
				}
			}
			catch (RuntimeException ex) {
				// one broken schedule must not stop the others
				log.warn("Firing schedule {} failed: {}", scheduleId, Errors.rootMessage(ex));
			}
		}
		return stepped;
	}

	/** Reads a schedule without locking it: tests keep it to replay a stale step. */
	public Optional<ScheduleRow> read(String scheduleId) {
		return this.repository.find(this.namespace, scheduleId);
	}

	/**
	 * Steps a schedule from a row read earlier, without locking it first: only the
	 * version's compare-and-set and the firing keys keep a stale step from firing twice.
	 * @return whether the step committed
	 */
	public boolean fireDue(ScheduleRow read) {
		return this.firer.fire(() -> Optional.of(read), true, List.of(), null) != null;
	}

	/**
	 * Begins the stop at once: no new round starts; {@link #close} also waits for the one
	 * under way.
	 */
	@Override
	public void beginStop() {
		this.running = false;
		if (this.clock instanceof SettableClock settable) {
			settable.removeListener(this.clockListener);
		}
		if (this.thread != null) {
			this.thread.interrupt();
		}
	}

	/**
	 * Stops the loop and waits (bounded) for the round under way: no step is fired after
	 * this returns.
	 */
	@Override
	public void close() {
		beginStop();
		awaitStopped(System.nanoTime());
	}

	/** Waits (bounded) for the round under way: no step is fired after this returns. */
	@Override
	public void awaitStopped(long deadlineNanos) {
		BackgroundThreads.awaitEnded(this.thread);
	}

}
