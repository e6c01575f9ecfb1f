package dev.durable.workflow;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A clock tests can move. The engine watches it: timers, retries and timeouts due at the new time
 * fire right after {@link #advance} or {@link #set}.
 */
public final class SettableClock extends Clock {

	private volatile Instant now;

	private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

	public SettableClock() {
		this(Instant.now());
	}

	public SettableClock(Instant start) {
		this.now = start;
	}

	/** Moves the clock forward. */
	public void advance(Duration duration) {
		set(this.now.plus(duration));
	}

	/** Sets the clock; it may not go backwards. */
	public synchronized void set(Instant instant) {
		if (instant.isBefore(this.now)) {
			throw new IllegalArgumentException("The clock cannot go back from " + this.now + " to " + instant);
		}
		this.now = instant;
		this.listeners.forEach(Runnable::run);
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
		return this.now;
	}

}
