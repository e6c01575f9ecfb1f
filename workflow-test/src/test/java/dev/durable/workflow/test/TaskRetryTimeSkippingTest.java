package dev.durable.workflow.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A workflow task that fails (an exception that is no {@code ApplicationFailure}) is
 * retried after a backoff of 1 s: a caller waiting for the result or an update's outcome
 * has the clock jump to that retry, as to any other time the runs wait for, whether the
 * failed task was the run's first or a later one.
 *
 * <p>
 * The timeout guards against a hang (a waiting caller whose retry is never skipped to
 * waits forever); it asserts no timing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TaskRetryTimeSkippingTest {

	/** Whether the simulated bug has struck. */
	static final AtomicBoolean STRUCK = new AtomicBoolean();

	/**
	 * The task time up to which the main method's bug strikes: every attempt of the task
	 * before the clock moves fails (the attempt on the starting node and the first retry
	 * alike), the retry after the backoff succeeds.
	 */
	static volatile Instant buggyUntil;

	/**
	 * Fails its first task ("first"), or its second, after an hour's sleep ("later"),
	 * until retried.
	 */
	@Workflow("throws-once")
	public static class ThrowsOnce {

		@WorkflowRun
		public Instant run(String where) {
			if (where.equals("later")) {
				Workflows.sleep(Duration.ofHours(1));
			}
			if (!Workflows.now().isAfter(buggyUntil)) {
				STRUCK.set(true);
				throw new IllegalStateException("simulated bug in the " + where + " task");
			}
			return Workflows.now();
		}

	}

	/**
	 * Its update handler throws once; the run ends with the value set, or after a day.
	 */
	@Workflow("update-throws-once")
	public static class UpdateThrowsOnce {

		private String value;

		@WorkflowRun
		public String run() {
			Workflows.await(Duration.ofDays(1), () -> this.value != null);
			return (this.value != null) ? this.value : "nothing";
		}

		@UpdateMethod
		public String set(String value) {
			if (STRUCK.compareAndSet(false, true)) {
				throw new IllegalStateException("simulated bug in the update handler");
			}
			this.value = value;
			return "set " + value;
		}

	}

	private final TestWorkflowEnvironment env = TestWorkflowEnvironment.builder()
		.registerWorkflows(ThrowsOnce.class, UpdateThrowsOnce.class)
		.build();

	@BeforeEach
	void reset() {
		STRUCK.set(false);
		buggyUntil = Instant.MAX;
	}

	@AfterEach
	void close() {
		this.env.close();
	}

	@Test
	void theRetryOfAFailedFirstTaskIsSkippedTo() {
		Instant start = this.env.currentTime();
		buggyUntil = start;
		WorkflowHandle<Instant> handle = this.env.client()
			.start(ThrowsOnce::run, "first", StartOptions.withId("first-task"));
		assertThat(handle.result()).isEqualTo(start.plus(Duration.ofSeconds(1)));
		assertThat(STRUCK).isTrue();
	}

	@Test
	void theRetryOfAFailedLaterTaskIsSkippedTo() {
		Instant start = this.env.currentTime();
		buggyUntil = start.plus(Duration.ofHours(1));
		WorkflowHandle<Instant> handle = this.env.client()
			.start(ThrowsOnce::run, "later", StartOptions.withId("later-task"));
		assertThat(handle.result()).isEqualTo(start.plus(Duration.ofHours(1)).plus(Duration.ofSeconds(1)));
		assertThat(STRUCK).isTrue();
	}

	@Test
	void anUpdateWhoseHandlerFailedItsTaskOnceIsAnsweredAfterTheRetry() {
		Instant start = this.env.currentTime();
		WorkflowHandle<String> handle = this.env.client()
			.start(UpdateThrowsOnce::run, StartOptions.withId("update-task"));
		assertThat(handle.update(UpdateThrowsOnce::set, "v1")).isEqualTo("set v1");
		assertThat(STRUCK).isTrue();
		assertThat(handle.result()).isEqualTo("v1");
		assertThat(this.env.currentTime()).isEqualTo(start.plus(Duration.ofSeconds(1)));
	}

}
