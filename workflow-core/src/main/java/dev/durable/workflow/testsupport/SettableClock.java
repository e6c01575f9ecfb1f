package dev.durable.workflow.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A clock tests can move. The engine watches it: timers, retries and timeouts due at the
 * new time fire right after {@link #advance} or {@link #set}. It stands still unless
 * moved, or runs at real speed between {@link #startRunning()} and {@link #stopRunning()}
 * (the test kit runs it while activity code runs, so that what comes due during an
 * activity fires on time).
 */
public final class SettableClock extends Clock {

	/**
	 * The time at {@code nanos} (a {@link System#nanoTime()} reading) and whether it runs
	 * from there; one immutable value, so a reader never mixes two states.
	 */
	private record State(Instant base, long nanos, boolean running) {

		Instant at(long nowNanos) {
			if (!this.running) {
				return this.base;
			}
			long elapsed = nowNanos - this.nanos;
			// whole microseconds: what PostgreSQL stores, so a time read back equals the
			// one written
			return this.base.plusNanos(elapsed - elapsed % 1000);
		}

	}

	private volatile State state;

	private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

	public SettableClock() {
		this(Instant.now());
	}

	public SettableClock(Instant start) {
		this.state = new State(start, System.nanoTime(), false);
	}

	/** Moves the clock forward (from where it is now, when it runs). */
	public synchronized void advance(Duration duration) {
		if (duration.isNegative()) {
			throw new IllegalArgumentException("The clock cannot go back by " + duration);
		}
		long nanos = System.nanoTime();
		moveTo(this.state.at(nanos).plus(duration), nanos);
	}

	/**
	 * Sets the clock; it may not go backwards. A running clock goes on running from
	 * there.
	 */
	public synchronized void set(Instant instant) {
		long nanos = System.nanoTime();
		Instant now = this.state.at(nanos);
		if (instant.isBefore(now)) {
			throw new IllegalArgumentException("The clock cannot go back from " + now + " to " + instant);
		}
		moveTo(instant, nanos);
	}

	private void moveTo(Instant instant, long nanos) {
		this.state = new State(instant, nanos, this.state.running());
		this.listeners.forEach(Runnable::run);
	}

	/**
	 * Lets the clock run at real speed from its current time (idempotent). The listeners
	 * are not called: the engine's waits are measured on this clock, so they end on time
	 * as it runs.
	 */
	public synchronized void startRunning() {
		if (!this.state.running()) {
			this.state = new State(this.state.base(), System.nanoTime(), true);
		}
	}

	/** Stops the clock at its current time (idempotent). */
	public synchronized void stopRunning() {
		if (this.state.running()) {
			long nanos = System.nanoTime();
			this.state = new State(this.state.at(nanos), nanos, false);
		}
	}

	/** Whether the clock runs at real speed now. */
	public boolean isRunning() {
		return this.state.running();
	}

	/** Registers a listener called after every change; used by the engine. */
	public void onChange(Runnable listener) {
		this.listeners.add(listener);
	}

	/** Unregisters a listener. */
	public void removeListener(Runnable listener) {
		this.listeners.remove(listener);
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException("A settable clock is always UTC");
	}

	@Override
	public Instant instant() {
		return this.state.at(System.nanoTime());
	}

}
