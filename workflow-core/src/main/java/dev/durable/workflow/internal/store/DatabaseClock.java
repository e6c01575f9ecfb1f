package dev.durable.workflow.internal.store;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.support.Errors;

/**
 * The node's clock corrected to the database's: every time the engine schedules or judges
 * (a timer's due time, a start delay, a timeout, a retry, a rate window, a schedule's
 * next fire) is compared across nodes through the rows it writes, so it must not depend
 * on one node's clock being right. The node's clock keeps its resolution and speed; only
 * its offset to {@code clock_timestamp()} is measured: before the engine serves (it does
 * not start until a measurement succeeds), then with every heartbeat, or periodically on
 * a node without one.
 *
 * <p>
 * A measurement reads the node's clock before ({@code t0}) and after ({@code t1}) one
 * round trip that reads the database's: the true offset lies in
 * {@code [db - t1, db - t0]}. While the measurements agree (their intervals overlap) the
 * offset's interval is their intersection, which only narrows, so the corrected time does
 * not jitter with each round trip; a measurement that disagrees (the node's clock was
 * stepped, or drifted out of the interval) starts anew from its own interval. The clock
 * uses the interval's middle: the corrected time is off the database's by at most half
 * the interval, at most half the round trip of the last measurement that started anew
 * (sub-millisecond on a local network; {@link #bound()} reports it), plus the drift of
 * the two clocks since the last heartbeat.
 */
public final class DatabaseClock extends Clock {

	private static final Logger log = LoggerFactory.getLogger(DatabaseClock.class);

	/**
	 * The offset is noted in the log when it is at least this large: the node's clock is
	 * wrong.
	 */
	private static final Duration NOTABLE = Duration.ofSeconds(1);

	/**
	 * The wait after the first failed measurement at start; it doubles up to
	 * {@link #MAX_BACKOFF}.
	 */
	private static final Duration FIRST_BACKOFF = Duration.ofMillis(50);

	private static final Duration MAX_BACKOFF = Duration.ofSeconds(2);

	private final Clock node;

	private final JdbcTemplate jdbc;

	/**
	 * Database minus node, in microseconds, and its error bound; shared with the clock's
	 * other zones.
	 */
	private final AtomicReference<Offset> offset;

	/**
	 * The true offset lies in {@code [low, high]} (microseconds); the clock uses its
	 * middle.
	 */
	private record Offset(long low, long high) {

		static final Offset UNKNOWN = new Offset(0, -1);

		boolean known() {
			return this.low <= this.high;
		}

		long micros() {
			return known() ? this.low + (this.high - this.low) / 2 : 0;
		}

		long boundMicros() {
			return known() ? (this.high - this.low + 1) / 2 : Long.MAX_VALUE;
		}

	}

	public DatabaseClock(Clock node, JdbcTemplate jdbc) {
		this(node, jdbc, new AtomicReference<>(Offset.UNKNOWN));
	}

	private DatabaseClock(Clock node, JdbcTemplate jdbc, AtomicReference<Offset> offset) {
		this.node = node;
		this.jdbc = jdbc;
		this.offset = offset;
	}

	/**
	 * Measures the offset to the database's clock. A failed measurement keeps the offset
	 * in use (the interval last measured: the node's clock keeps its speed, so it stays
	 * off the database's by little more than its drift since) and the next heartbeat
	 * tries again; it never throws. Once the engine serves, the offset is known:
	 * {@link #measureFirst} measured it.
	 */
	public void measure() {
		measure(this.jdbc);
	}

	/**
	 * Measures the offset over the given connections (the heartbeat's own, which does not
	 * wait for a pooled one behind the work).
	 */
	public void measure(JdbcTemplate over) {
		try {
			measureOnce(over);
		}
		catch (RuntimeException ex) {
			log.warn("Could not read the database's clock: {}", Errors.rootMessage(ex));
		}
	}

	/**
	 * Measures the offset before the engine schedules anything, retrying with backoff
	 * while the database does not answer (its pool exhausted, a restart under way): a
	 * time written on the node's own clock, possibly far off, would hold back what other
	 * nodes schedule after it.
	 * @param patience how long to keep trying
	 * @throws IllegalStateException when no measurement succeeded within
	 * {@code patience}: the engine does not start
	 */
	public void measureFirst(Duration patience) {
		long deadline = System.nanoTime() + patience.toNanos();
		long backoffMillis = FIRST_BACKOFF.toMillis();
		for (int attempt = 1;; attempt++) {
			try {
				measureOnce(this.jdbc);
				return;
			}
			catch (RuntimeException ex) {
				if (this.offset.get().known()) {
					return; // a sample of the first few was answered: its interval bounds
							// the offset
				}
				long leftNanos = deadline - System.nanoTime();
				if (leftNanos <= 0) {
					throw new IllegalStateException("Could not read the database's clock in " + attempt
							+ " attempt(s) over " + patience + " (" + Errors.rootMessage(ex)
							+ "): the engine does not start, since the times it writes would be on this node's"
							+ " clock, which may be off the database's", ex);
				}
				long sleepMillis = Math.min(backoffMillis, TimeUnit.NANOSECONDS.toMillis(leftNanos) + 1);
				log.warn("Could not read the database's clock (attempt {}): {}; trying again in {} ms", attempt,
						Errors.rootMessage(ex), sleepMillis);
				try {
					Thread.sleep(sleepMillis);
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("Interrupted while reading the database's clock", ex);
				}
				backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF.toMillis());
			}
		}
	}

	/**
	 * One measurement; the first takes a few round trips: the first of a JVM is slow, and
	 * its interval would bound the clock until the next heartbeat.
	 */
	private void measureOnce(JdbcTemplate over) {
		Offset before = this.offset.get();
		int samples = before.known() ? 1 : 3;
		for (int i = 0; i < samples; i++) {
			sample(over);
		}
		Offset measured = this.offset.get();
		if (Math.abs(measured.micros() - before.micros()) >= NOTABLE.toNanos() / 1000) {
			log.warn("This node's clock is {} off the database's (within {}): the engine uses the database's",
					Duration.of(-measured.micros(), ChronoUnit.MICROS),
					Duration.of(measured.boundMicros(), ChronoUnit.MICROS));
		}
	}

	/** Whether the offset was measured. */
	public boolean isMeasured() {
		return this.offset.get().known();
	}

	private void sample(JdbcTemplate over) {
		long t0 = micros(this.node.instant());
		Timestamp db = over.queryForObject("SELECT clock_timestamp()", Timestamp.class);
		long t1 = micros(this.node.instant());
		long dbMicros = micros(db.toInstant());
		long low = dbMicros - t1 - 1; // the node's readings are cut to whole microseconds
		long high = dbMicros - t0;
		Offset current = this.offset.get();
		if (current.known() && low <= current.high() && high >= current.low()) {
			// both hold the true offset: so does their intersection, a tighter bound
			low = Math.max(low, current.low());
			high = Math.min(high, current.high());
		}
		this.offset.set(new Offset(low, high));
	}

	/** The database's time minus the node's, as last measured. */
	public Duration offset() {
		return Duration.of(this.offset.get().micros(), ChronoUnit.MICROS);
	}

	/**
	 * How far the corrected time may be off the database's (half the measurement's round
	 * trip).
	 */
	public Duration bound() {
		long bound = this.offset.get().boundMicros();
		return (bound == Long.MAX_VALUE) ? ChronoUnit.FOREVER.getDuration() : Duration.of(bound, ChronoUnit.MICROS);
	}

	private static long micros(Instant instant) {
		return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
	}

	/**
	 * The node's time corrected by the measured offset. A clock not yet measured (read
	 * before the engine started, by its client) measures first: a time written on the
	 * node's own clock would hold back what other nodes schedule after it. Should that
	 * fail, the database is unlikely to take the write either; the node's time is
	 * returned and the next read measures again.
	 */
	@Override
	public Instant instant() {
		if (!this.offset.get().known()) {
			measure();
		}
		return this.node.instant().plus(this.offset.get().micros(), ChronoUnit.MICROS);
	}

	@Override
	public long millis() {
		return instant().toEpochMilli();
	}

	@Override
	public ZoneId getZone() {
		return this.node.getZone();
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return (zone.equals(getZone())) ? this : new DatabaseClock(this.node.withZone(zone), this.jdbc, this.offset);
	}

}
