package dev.durable.workflow.run;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Workflow retry policy and cron schedule: the next run of the same workflow id. */
class WorkflowRetryAndCronTest {

	static final AtomicInteger RUNS = new AtomicInteger();

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Fails its first two runs, or always with a non-retryable failure. */
	@Workflow("flaky-workflow")
	public static class FlakyWorkflow {

		@WorkflowRun
		public String run(String mode) {
			int run = Workflows.sideEffect(Integer.class, RUNS::incrementAndGet);
			if (mode.equals("fatal")) {
				throw ApplicationFailure.newNonRetryableFailure("fatal", "Fatal");
			}
			if (run < 3) {
				throw ApplicationFailure.newFailure("run " + run + " failed", "Flaky");
			}
			return mode + " at run " + run;
		}

	}

	/** Records when it ran. */
	@Workflow("ticking")
	public static class Ticking {

		@WorkflowRun
		public String run(String name) {
			return name + "@" + Workflows.now();
		}

	}

	private List<Map<String, Object>> runs(String workflowId) {
		return this.engines.jdbc()
			.queryForList("SELECT status, attempt, created_at FROM " + this.engines.schema
					+ ".workflow_run WHERE workflow_id = ? ORDER BY created_at, run_id", workflowId);
	}

	@Test
	void aFailedRunIsRetriedWithBackoffUntilItSucceeds() {
		RUNS.set(0);
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(FlakyWorkflow.class));
		WorkflowHandle<String> handle = engine.client()
			.start(FlakyWorkflow::run, "retried", StartOptions.builder()
				.workflowId("retried")
				.retryPolicy(RetryPolicy.builder().initialInterval(Duration.ofSeconds(10)).maximumAttempts(5).build())
				.build());
		await().until(() -> runs("retried").size() == 2);
		this.engines.clock.advance(Duration.ofSeconds(10));
		await().until(() -> runs("retried").size() == 3);
		this.engines.clock.advance(Duration.ofSeconds(20));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("retried at run 3");
		assertThat(runs("retried")).extracting((r) -> r.get("status") + "/" + r.get("attempt"))
			.containsExactly("FAILED/1", "FAILED/2", "COMPLETED/3");
		Engines.assertReplays(engine, engine.client().handle("retried").runId());
	}

	@Test
	void aNonRetryableFailureEndsTheChain() {
		RUNS.set(0);
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(FlakyWorkflow.class));
		WorkflowHandle<String> handle = engine.client()
			.start(FlakyWorkflow::run, "fatal",
					StartOptions.builder()
						.workflowId("fatal")
						.retryPolicy(RetryPolicy.builder().maximumAttempts(5).build())
						.build());
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class);
		assertThat(runs("fatal")).hasSize(1);
	}

	@Test
	void aCronWorkflowRunsAtEachTimeOfItsSchedule() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(Ticking.class));
		// the test clock starts at 2026-01-01T00:00:00Z
		engine.client()
			.start(Ticking::run, "tick", StartOptions.builder().workflowId("cron").cronSchedule("*/5 * * * *").build());
		assertThat(runs("cron")).hasSize(1);
		this.engines.clock.advance(Duration.ofMinutes(5));
		await().until(() -> runs("cron").size() == 2);
		this.engines.clock.advance(Duration.ofMinutes(5));
		await().until(() -> runs("cron").size() == 3);
		List<Map<String, Object>> runs = runs("cron");
		assertThat(runs).extracting((r) -> r.get("status")).containsExactly("COMPLETED", "COMPLETED", "RUNNING");
		assertThat(engine.client().handle("cron").describe().status().isClosed()).isFalse();
		assertThat(((java.sql.Timestamp) runs.get(2).get("created_at")).toInstant())
			.isEqualTo(Instant.parse("2026-01-01T00:10:00Z"));
		assertThatThrownBy(() -> engine.client()
			.start(Ticking::run, "bad",
					StartOptions.builder().workflowId("bad-cron").cronSchedule("every minute").build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid cron schedule");
	}

	private Instant nextWake(String workflowId) {
		return this.engines.jdbc()
			.queryForObject(
					"SELECT next_wake_at FROM " + this.engines.schema
							+ ".workflow_run WHERE workflow_id = ? AND status = 'RUNNING'",
					java.sql.Timestamp.class, workflowId)
			.toInstant();
	}

	@Test
	void aCronScheduleFollowsItsTimeZoneAcrossADaylightSavingChange() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(Ticking.class));
		// Saturday 2026-03-07, 10:00 in New York (EST, UTC-5); clocks go forward on
		// Sunday 03-08
		this.engines.clock.set(Instant.parse("2026-03-07T15:00:00Z"));
		engine.client()
			.start(Ticking::run, "tick",
					StartOptions.builder()
						.workflowId("cron-ny")
						.cronSchedule("CRON_TZ=America/New_York 0 9 * * *")
						.build());
		// 9:00 EDT (UTC-4) on Sunday
		assertThat(nextWake("cron-ny")).isEqualTo(Instant.parse("2026-03-08T13:00:00Z"));
		this.engines.clock.set(Instant.parse("2026-03-08T13:00:00Z"));
		await().until(() -> runs("cron-ny").size() == 2);
		assertThat(nextWake("cron-ny")).isEqualTo(Instant.parse("2026-03-09T13:00:00Z"));
		assertThatThrownBy(() -> engine.client()
			.start(Ticking::run, "bad",
					StartOptions.builder()
						.workflowId("bad-zone")
						.cronSchedule("CRON_TZ=Mars/Olympus 0 9 * * *")
						.build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid time zone");
	}

}
