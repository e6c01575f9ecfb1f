package dev.durable.workflow.internal.store;

import java.time.Clock;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.support.FailingClockReads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The engine's clock measured against a real PostgreSQL whose first reads of its clock
 * fail: the first measurement, before the engine serves, is retried until the database
 * answers, or fails start; a later failed one keeps the offset measured.
 */
class DatabaseClockTest {

	private static final Duration SKEW = Duration.ofSeconds(30);

	/** Far above a round trip on a loaded machine, far below the skew. */
	private static final Duration BOUND = Duration.ofMillis(500);

	private final Clock ahead = Clock.offset(Clock.systemUTC(), SKEW);

	@Test
	void theFirstMeasurementIsRetriedUntilTheDatabaseAnswers() {
		FailingClockReads database = new FailingClockReads(4);
		DatabaseClock clock = new DatabaseClock(this.ahead, new JdbcTemplate(database.dataSource));
		clock.measureFirst(Duration.ofSeconds(30));
		assertThat(database.failures).as("clock reads left to fail").hasValue(0);
		assertThat(clock.isMeasured()).isTrue();
		assertThat(clock.offset().plus(SKEW).abs()).as("offset %s", clock.offset()).isLessThan(BOUND);
	}

	@Test
	void theFirstMeasurementFailsClearlyWhenTheDatabaseNeverAnswers() {
		FailingClockReads database = new FailingClockReads(Integer.MAX_VALUE);
		DatabaseClock clock = new DatabaseClock(this.ahead, new JdbcTemplate(database.dataSource));
		assertThatIllegalStateException().isThrownBy(() -> clock.measureFirst(Duration.ofMillis(300)))
			.withMessageContaining("Could not read the database's clock")
			.withMessageContaining("the engine does not start");
		assertThat(clock.isMeasured()).isFalse();
	}

	@Test
	void aClockReadBeforeAnyMeasurementMeasuresFirst() {
		DatabaseClock clock = new DatabaseClock(this.ahead, new JdbcTemplate(new FailingClockReads(0).dataSource));
		java.time.Instant read = clock.instant();
		java.time.Instant db = new JdbcTemplate(new FailingClockReads(0).dataSource)
			.queryForObject("SELECT clock_timestamp()", java.sql.Timestamp.class)
			.toInstant();
		assertThat(Duration.between(read, db).abs()).as("the database's %s after the clock's %s", db, read)
			.isLessThan(BOUND);
		assertThat(clock.isMeasured()).isTrue();
	}

	@Test
	void aLaterFailedMeasurementKeepsTheOffsetMeasured() {
		FailingClockReads database = new FailingClockReads(0);
		DatabaseClock clock = new DatabaseClock(this.ahead, new JdbcTemplate(database.dataSource));
		clock.measureFirst(Duration.ofSeconds(30));
		Duration measured = clock.offset();
		database.failures.set(1);
		clock.measure();
		assertThat(database.failures).as("clock reads left to fail").hasValue(0);
		assertThat(clock.isMeasured()).isTrue();
		assertThat(clock.offset()).isEqualTo(measured);
	}

}
