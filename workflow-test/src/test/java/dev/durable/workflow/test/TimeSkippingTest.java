package dev.durable.workflow.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.test.fixtures.RealGreeter;
import dev.durable.workflow.test.fixtures.TimeWorkflows;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TimeSkippingTest {

	private final TestWorkflowEnvironment env = TestWorkflowEnvironment.builder()
		.registerWorkflows(TimeWorkflows.LongSleep.class, TimeWorkflows.WaitForSignal.class,
				TimeWorkflows.SlowActivity.class)
		.registerActivities(new RealGreeter())
		.build();

	@AfterEach
	void close() {
		this.env.close();
	}

	@Test
	void aThirtyDaySleepFinishesWithoutWaitingItOut() {
		this.env.start(); // the schema migration is not part of the measure
		Instant start = this.env.currentTime();
		long began = System.nanoTime();
		WorkflowHandle<Instant> handle = this.env.client()
			.start(TimeWorkflows.LongSleep::run, 30, StartOptions.withId("sleeper"));
		Instant wokeAt = handle.result();
		Duration wall = Duration.ofNanos(System.nanoTime() - began);
		assertThat(wokeAt).isEqualTo(start.plus(Duration.ofDays(30)));
		assertThat(this.env.currentTime()).isEqualTo(start.plus(Duration.ofDays(30)));
		// about 0.1 s on a quiet machine; the bound only tells a skip from a wait,
		// however loaded the
		// machine (how fast a skip is belongs to the benchmarks, not to a test)
		assertThat(wall).isLessThan(Duration.ofMinutes(1));
	}

	@Test
	void aSignalSentOnDayTwoIsSeenOnDayTwo() {
		Instant start = this.env.currentTime();
		WorkflowHandle<Instant> handle = this.env.client()
			.start(TimeWorkflows.WaitForSignal::run, StartOptions.withId("waiter"));
		this.env.sleep(Duration.ofDays(2));
		assertThat(this.env.currentTime()).isEqualTo(start.plus(Duration.ofDays(2)));
		handle.signal("ping", null);
		assertThat(handle.result()).isEqualTo(start.plus(Duration.ofDays(2)));
	}

	@Test
	void withoutASignalTheWeekIsSkipped() {
		Instant start = this.env.currentTime();
		WorkflowHandle<Instant> handle = this.env.client()
			.start(TimeWorkflows.WaitForSignal::run, StartOptions.withId("waiter"));
		assertThat(handle.result()).isEqualTo(start.plus(Duration.ofDays(7)));
	}

	/**
	 * While the activity runs the clock runs at real speed (its 300 ms count), and it
	 * does not jump to the hour-long timer until the activity has ended; then it jumps
	 * exactly to the timer.
	 */
	@Test
	void timeRunsAtRealSpeedWhileAnActivityRunsAndJumpsOnlyAfter() {
		Instant start = this.env.currentTime();
		WorkflowHandle<Instant> handle = this.env.client()
			.start(TimeWorkflows.SlowActivity::run, 300L, StartOptions.withId("slow"));
		Instant afterActivity = handle.result();
		assertThat(afterActivity).isAfterOrEqualTo(start.plusMillis(300)).isBefore(start.plus(Duration.ofMinutes(1)));
		assertThat(this.env.currentTime()).isEqualTo(start.plus(Duration.ofHours(1)));
	}

	@Test
	void withAutomaticSkippingOffOnlySleepMovesTime() {
		this.env.setAutoTimeSkipping(false);
		Instant start = this.env.currentTime();
		WorkflowHandle<Instant> handle = this.env.client()
			.start(TimeWorkflows.LongSleep::run, 2, StartOptions.withId("manual"));
		assertThatThrownBy(() -> handle.result(Duration.ofMillis(500)))
			.isInstanceOf(WorkflowHandle.WorkflowTimeoutException.class);
		assertThat(this.env.currentTime()).isEqualTo(start);
		this.env.sleep(Duration.ofDays(2));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo(start.plus(Duration.ofDays(2)));
	}

	/**
	 * The skipper moves time only while a caller is blocked on an outcome: a caller
	 * answered counts no more (that it does so even before its thread leaves the wait is
	 * ResultWaitersTest's, in the engine).
	 */
	@Test
	void onlyACallerStillWaitingForItsResultMovesTime() throws Exception {
		this.env.setAutoTimeSkipping(false); // this test takes the skipper's steps itself
		Instant start = this.env.currentTime();
		WorkflowHandle<Instant> handle = this.env.client()
			.start(TimeWorkflows.LongSleep::run, 2, StartOptions.withId("sleeper"));
		this.env.sleep(Duration.ZERO); // the run waits for its timer, a day from now
		assertThat(this.env.timeSkipper().skipIfBlocked()).as("nobody waits: time stays").isFalse();

		CompletableFuture<Instant> result = handle.resultAsync();
		while (!this.env.engine().quiescence().anyCallerBlocked()) {
			Thread.onSpinWait();
		}
		assertThat(this.env.timeSkipper().skipIfBlocked()).as("a blocked caller: time moves").isTrue();
		Instant oneDay = start.plus(Duration.ofDays(1));
		assertThat(this.env.currentTime()).isEqualTo(oneDay);
		this.env.sleep(Duration.ZERO);
		assertThat(this.env.timeSkipper().skipIfBlocked()).as("still blocked").isTrue();
		Instant twoDays = start.plus(Duration.ofDays(2));
		assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(twoDays);

		assertThat(this.env.engine().quiescence().anyCallerBlocked()).isFalse();
		assertThat(this.env.timeSkipper().skipIfBlocked()).isFalse();
		assertThat(this.env.currentTime()).isEqualTo(twoDays);
	}

}
