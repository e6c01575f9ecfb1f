package dev.durable.workflow.internal.execution;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.PriorityQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

import dev.durable.workflow.internal.support.BackgroundThreads;
import dev.durable.workflow.testsupport.SettableClock;

/**
 * Runs actions at instants of the engine clock: timer wake-ups, activity retries and
 * timeouts. One thread for the whole node; with a {@link SettableClock} it re-checks
 * whenever a test moves the clock.
 */
public final class WakeScheduler implements AutoCloseable {

	private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(WakeScheduler.class);

	private static final long MAX_WAIT_MILLIS = 1000;

	private final Clock clock;

	private final Executor executor;

	private final PriorityQueue<Entry> queue = new PriorityQueue<>();

	private final AtomicLong order = new AtomicLong();

	/** Actions taken from the queue whose run has not ended yet. */
	private final java.util.concurrent.atomic.AtomicInteger dispatched = new java.util.concurrent.atomic.AtomicInteger();

	private final Thread thread;

	private final Runnable clockListener = this::wakeUp;

	private volatile boolean running = true;

	private record Entry(Instant due, long order, Runnable action) implements Comparable<Entry> {

		@Override
		public int compareTo(Entry other) {
			int byDue = this.due.compareTo(other.due);
			return (byDue != 0) ? byDue : Long.compare(this.order, other.order);
		}

	}

	public WakeScheduler(Clock clock, Executor executor) {
		this.clock = clock;
		this.executor = executor;
		if (clock instanceof SettableClock settable) {
			settable.onChange(this.clockListener);
		}
		this.thread = Thread.ofPlatform().daemon().name("durable-wake").start(this::loop);
	}

	public void schedule(Instant due, Runnable action) {
		synchronized (this.queue) {
			this.queue.add(new Entry(due, this.order.incrementAndGet(), action));
			this.queue.notifyAll();
		}
	}

	private void wakeUp() {
		synchronized (this.queue) {
			this.queue.notifyAll();
		}
	}

	private void loop() {
		while (this.running) {
			Runnable action = null;
			synchronized (this.queue) {
				Entry head = this.queue.peek();
				long wait = MAX_WAIT_MILLIS;
				if (head != null) {
					long delay = Duration.between(this.clock.instant(), head.due()).toMillis();
					if (delay <= 0) {
						action = this.queue.poll().action();
						this.dispatched.incrementAndGet();
					}
					else {
						wait = Math.min(delay, MAX_WAIT_MILLIS);
					}
				}
				if (action == null) {
					try {
						this.queue.wait(wait);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			}
			if (action != null) {
				Runnable toRun = action;
				try {
					this.executor.execute(() -> {
						try {
							toRun.run();
						}
						catch (RuntimeException ex) {
							log.error("Scheduled engine action failed", ex);
						}
						finally {
							this.dispatched.decrementAndGet();
						}
					});
				}
				catch (RuntimeException ex) {
					// executor shut down: the engine is stopping
					this.dispatched.decrementAndGet();
				}
			}
		}
	}

	/**
	 * Whether an action is due by the engine clock or still running (the test kit's
	 * quiescence check).
	 */
	public boolean isBusy() {
		if (this.dispatched.get() > 0) {
			return true;
		}
		synchronized (this.queue) {
			Entry head = this.queue.peek();
			return head != null && !head.due().isAfter(this.clock.instant());
		}
	}

	@Override
	public void close() {
		this.running = false;
		if (this.clock instanceof SettableClock settable) {
			settable.removeListener(this.clockListener);
		}
		this.thread.interrupt();
		BackgroundThreads.awaitEnded(this.thread);
	}

}
