package dev.durable.workflow.test;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.CancellationScope;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.CanceledFailure;
import dev.durable.workflow.failure.TimeoutFailure;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * While activity code runs the test clock runs at real speed, so what comes due during a
 * long activity (a timer that cancels it, its heartbeat or start-to-close timeout) fires
 * at its time, as on a real clock, and not when the activity ends.
 */
class TimeRunsDuringActivitiesTest {

	@Activity
	public interface Crunch {

		/** Works for the given time in small steps, heartbeating; a cancel ends it. */
		@ActivityMethod(heartbeatTimeout = "PT2S", maxAttempts = 1)
		String crunch(long millis);

		/** Heartbeats once, then stays silent for the given time. */
		@ActivityMethod(heartbeatTimeout = "PT1S", maxAttempts = 1)
		String silent(long millis);

		/** Works for the given time, longer than its start-to-close timeout. */
		@ActivityMethod(startToCloseTimeout = "PT1S", maxAttempts = 1)
		String overdue(long millis);

	}

	/** {@link Crunch} on a task queue, served by another node of the environment. */
	@Activity
	public interface QueuedCrunch {

		@ActivityMethod(taskQueue = "crunch", heartbeatTimeout = "PT2S", maxAttempts = 1)
		String crunchQueued(long millis);

	}

	public static class RealCrunch implements Crunch {

		final CountDownLatch canceled = new CountDownLatch(1);

		@Override
		public String crunch(long millis) {
			return work(millis, true);
		}

		@Override
		public String silent(long millis) {
			ActivityContext.current().heartbeat("started");
			return work(millis, false);
		}

		@Override
		public String overdue(long millis) {
			return work(millis, false);
		}

		/**
		 * Real work in real time: sleeps in steps of 50 ms until done, canceled or
		 * interrupted.
		 */
		String work(long millis, boolean heartbeat) {
			long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
			try {
				while (System.nanoTime() < end) {
					if (ActivityContext.current().isCancelRequested()) {
						break;
					}
					if (heartbeat) {
						ActivityContext.current().heartbeat(null);
					}
					Thread.sleep(50);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			if (ActivityContext.current().isCancelRequested() || Thread.currentThread().isInterrupted()) {
				this.canceled.countDown();
				return "stopped";
			}
			return "done";
		}

	}

	/**
	 * Registered on the worker node only: an implementation registered on the workflow
	 * node too would be what the workflow is given.
	 */
	public static class RealQueuedCrunch implements QueuedCrunch {

		final RealCrunch crunch = new RealCrunch();

		@Override
		public String crunchQueued(long millis) {
			return this.crunch.work(millis, true);
		}

	}

	@Workflow("cancel-after-three-seconds")
	public static class CancelAfterThreeSeconds {

		private final Crunch crunch;

		private final QueuedCrunch queued;

		public CancelAfterThreeSeconds(Crunch crunch, QueuedCrunch queued) {
			this.crunch = crunch;
			this.queued = queued;
		}

		/** A 10 s activity in a scope that a 3 s timer cancels. */
		@WorkflowRun
		public String run(boolean onTaskQueue) {
			CancellationScope scope = Workflows.newCancellationScope(() -> {
				if (onTaskQueue) {
					this.queued.crunchQueued(10_000);
				}
				else {
					this.crunch.crunch(10_000);
				}
			});
			Workflows.async(() -> {
				Workflows.sleep(Duration.ofSeconds(3));
				scope.cancel("three seconds");
			});
			try {
				scope.run();
				return "finished";
			}
			catch (ActivityFailure ex) {
				return (ex.getCause() instanceof CanceledFailure) ? "canceled" : "failed: " + ex.getCause();
			}
		}

	}

	@Workflow("time-out")
	public static class TimeOut {

		private final Crunch crunch;

		public TimeOut(Crunch crunch) {
			this.crunch = crunch;
		}

		/** A 4 s activity that its heartbeat or start-to-close timeout of 1 s stops. */
		@WorkflowRun
		public String run(String which) {
			try {
				return "heartbeat".equals(which) ? this.crunch.silent(4_000) : this.crunch.overdue(4_000);
			}
			catch (ActivityFailure ex) {
				return "timed out: " + ((TimeoutFailure) ex.getCause()).getTimeoutType();
			}
		}

	}

	/**
	 * A bound on each run's wait, so that a regression fails instead of hanging the
	 * build.
	 */
	private static final Duration WAIT = Duration.ofSeconds(30);

	private final RealCrunch impl = new RealCrunch();

	private final TestWorkflowEnvironment env = TestWorkflowEnvironment.builder()
		.registerWorkflows(CancelAfterThreeSeconds.class, TimeOut.class)
		.registerActivities(this.impl)
		.build();

	@AfterEach
	void close() {
		this.env.close();
	}

	@Test
	void aTimerCancelsALongActivityAtItsTime() throws Exception {
		Instant start = this.env.start().currentTime();
		String result = this.env.client()
			.start(CancelAfterThreeSeconds::run, false, StartOptions.withId("cancel-inline"))
			.result(WAIT);
		assertThat(result).isEqualTo("canceled");
		assertThat(this.env.currentTime()).isAfterOrEqualTo(start.plusSeconds(3)).isBefore(start.plusSeconds(8));
		assertThat(this.impl.canceled.await(5, TimeUnit.SECONDS)).as("the activity saw the cancel").isTrue();
	}

	@Test
	void aTimerCancelsALongActivityClaimedFromATaskQueueAtItsTime() throws Exception {
		RealQueuedCrunch queued = new RealQueuedCrunch();
		this.env.newWorkerEngine(
				(builder) -> builder.runWorkflows(false).activityTaskQueues("crunch").registerActivities(queued));
		Instant start = this.env.currentTime();
		String result = this.env.client()
			.start(CancelAfterThreeSeconds::run, true, StartOptions.withId("cancel-queued"))
			.result(WAIT);
		assertThat(result).isEqualTo("canceled");
		assertThat(this.env.currentTime()).isAfterOrEqualTo(start.plusSeconds(3)).isBefore(start.plusSeconds(8));
		assertThat(queued.crunch.canceled.await(5, TimeUnit.SECONDS)).as("the activity saw the cancel").isTrue();
	}

	@Test
	void aHeartbeatTimeoutFiresDuringAStuckActivity() {
		Instant start = this.env.start().currentTime();
		String result = this.env.client().start(TimeOut::run, "heartbeat", StartOptions.withId("silent")).result(WAIT);
		assertThat(result).isEqualTo("timed out: HEARTBEAT");
		assertThat(this.env.currentTime()).isAfterOrEqualTo(start.plusSeconds(1)).isBefore(start.plusSeconds(4));
	}

	@Test
	void aStartToCloseTimeoutFiresDuringALongActivity() {
		Instant start = this.env.start().currentTime();
		String result = this.env.client().start(TimeOut::run, "overdue", StartOptions.withId("overdue")).result(WAIT);
		assertThat(result).isEqualTo("timed out: START_TO_CLOSE");
		assertThat(this.env.currentTime()).isAfterOrEqualTo(start.plusSeconds(1)).isBefore(start.plusSeconds(4));
	}

}
