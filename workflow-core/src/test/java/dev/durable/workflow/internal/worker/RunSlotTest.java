package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.history.Event;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run's slot keeps its state to itself: an input handed over in memory queues for the
 * next task and schedules it, unless the node let the run go; the activity recovery of a
 * claim is taken once; a read clears the cached row; a failed task's backoff holds until
 * its time.
 */
class RunSlotTest {

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	private final List<RunSlot> scheduled = new ArrayList<>();

	private final RunSlot slot = new RunSlot(UUID.randomUUID(), 3, true, this.scheduled::add);

	@Test
	void anInputHandedOverQueuesForTheNextTaskAndSchedulesIt() {
		Event completed = Event.activityCompleted(1, null);

		this.slot.handOver(completed);

		assertThat(this.scheduled).containsExactly(this.slot);
		assertThat(this.slot.drainMailbox()).containsExactly(completed);
		assertThat(this.slot.drainMailbox()).isEmpty();
	}

	@Test
	void aRunLetGoTakesNoMoreInputs() {
		this.slot.markDead();

		this.slot.handOver(Event.activityCompleted(1, null));

		assertThat(this.slot.isDead()).isTrue();
		assertThat(this.scheduled).isEmpty();
		assertThat(this.slot.drainMailbox()).isEmpty();
	}

	@Test
	void inputsOfATaskThatDidNotCommitGoBackAheadOfNewerOnes() {
		Event first = Event.activityCompleted(1, null);
		Event second = Event.timerFired(2);
		Event newer = Event.activityCompleted(3, null);
		this.slot.deliver(first);
		this.slot.deliver(second);
		List<Event> taken = this.slot.drainMailbox();
		this.slot.deliver(newer);

		this.slot.restore(taken);

		assertThat(this.slot.drainMailbox()).containsExactly(first, second, newer);
	}

	@Test
	void theActivityRecoveryOfAClaimIsDueUntilDone() {
		assertThat(this.slot.activityRecoveryDue()).isTrue();
		assertThat(this.slot.activityRecoveryDue()).as("a recovery the database failed is tried again").isTrue();
		this.slot.activitiesRecovered();
		assertThat(this.slot.activityRecoveryDue()).isFalse();
	}

	@Test
	void aReadForgetsTheCachedRowAndAWakeUpAsksForTheNextRead() {
		assertThat(this.slot.needsRead()).isTrue();

		this.slot.beginRead();
		assertThat(this.slot.needsRead()).isFalse();
		assertThat(this.slot.cachedRow()).isNull();

		this.slot.requireRead();
		assertThat(this.slot.needsRead()).isTrue();
	}

	@Test
	void aFailedTasksBackoffHoldsUntilItsTimeAndEndsWithACommit() {
		this.slot.retryNotBefore(T0.plusSeconds(2));

		assertThat(this.slot.waitsForRetry(T0.plusSeconds(1))).isTrue();
		assertThat(this.slot.waitsForRetry(T0.plusSeconds(2))).isFalse();

		this.slot.retrySucceeded();
		assertThat(this.slot.waitsForRetry(T0)).isFalse();
	}

	@Test
	void aRunWithAnActivityRunningIsNotIdle() {
		assertThat(this.slot.isIdle()).isTrue();

		this.slot.attemptStarted(7, new ActivityAttempt(new ActivityInfo("wf", this.slot.runId(), 7, "act", 1, T0),
				null, null, (details) -> {
				}, Clock.fixed(T0, ZoneOffset.UTC), () -> "token"));
		assertThat(this.slot.isIdle()).isFalse();
		assertThat(this.slot.isRunning(7)).isTrue();
		assertThat(this.slot.runningActivities()).containsExactly(7L);

		this.slot.attemptEnded(7);
		assertThat(this.slot.isIdle()).isTrue();
	}

}
