package dev.durable.workflow;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A deployed change of workflow code meets runs recorded by the old code: an incompatible
 * change makes the run stuck (not corrupted), and getVersion lets the same change deploy
 * safely.
 */
class NonDeterminismTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Steps {

		public String first() {
			return "first";
		}

		public String second() {
			return "second";
		}

		public String last() {
			return "last";
		}

	}

	/** The code as first deployed. */
	@Workflow("evolving")
	public static class Version1 {

		private final Steps steps;

		public Version1(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run() {
			String a = this.steps.first();
			Workflows.sleep(Duration.ofHours(1));
			return a + " " + this.steps.last();
		}

	}

	/**
	 * The same type with the first step replaced, without versioning: incompatible with
	 * old runs.
	 */
	@Workflow("evolving")
	public static class Version2Unsafe {

		private final Steps steps;

		public Version2Unsafe(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run() {
			String a = this.steps.second();
			Workflows.sleep(Duration.ofHours(1));
			return a + " " + this.steps.last();
		}

	}

	/** The same change guarded by getVersion. */
	@Workflow("evolving")
	public static class Version2Safe {

		private final Steps steps;

		public Version2Safe(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run() {
			int version = Workflows.getVersion("use-second-step", Workflows.DEFAULT_VERSION, 1);
			String a = (version == Workflows.DEFAULT_VERSION) ? this.steps.first() : this.steps.second();
			Workflows.sleep(Duration.ofHours(1));
			return a + " " + this.steps.last() + " v" + version;
		}

	}

	private WorkflowEngine deploy(Class<?> code) {
		return this.engines.start(this.engines.builder().register(code).registerActivities(new Steps()));
	}

	@Test
	void incompatibleChangeLeavesTheRunStuckAndVisibleThenGetVersionDeploysIt() {
		WorkflowEngine v1 = deploy(Version1.class);
		WorkflowHandle<String> old = v1.client().start(Version1::run, StartOptions.withId("old-run"));
		await().until(() -> this.engines.count("timer") == 1);
		v1.shutdown();
		int historyRows = this.engines.count("history");

		WorkflowEngine unsafe = deploy(Version2Unsafe.class);
		this.engines.clock.advance(Duration.ofHours(1));
		await().until(() -> old.describe().taskFailure() != null);
		WorkflowDescription stuck = old.describe();
		assertThat(stuck.status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(stuck.taskFailure()).contains("NonDeterministicWorkflowException")
			.contains("ACTIVITY_SCHEDULED#1(second)")
			.contains("ACTIVITY_SCHEDULED#1(first)");
		assertThat(stuck.taskAttempts()).isGreaterThanOrEqualTo(1);
		assertThat(this.engines.count("history")).as("nothing written by the failed task").isEqualTo(historyRows);
		// retried with backoff, still stuck, still nothing written
		this.engines.clock.advance(Duration.ofSeconds(2));
		await().until(() -> old.describe().taskAttempts() >= 2);
		assertThat(this.engines.count("history")).isEqualTo(historyRows);
		unsafe.shutdown();

		WorkflowEngine safe = deploy(Version2Safe.class);
		this.engines.clock.advance(Duration.ofMinutes(10));
		// the result through the serving node: the stopped ones are not told when the run
		// closes
		assertThat(safe.client().handle("old-run", String.class).result(Duration.ofSeconds(10)))
			.isEqualTo("first last v-1");
		assertThat(old.describe().taskFailure()).isNull();
		Engines.assertReplays(safe, old.runId());

		WorkflowHandle<String> fresh = safe.client().start(Version2Safe::run, StartOptions.withId("new-run"));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(fresh.result(Duration.ofSeconds(10))).isEqualTo("second last v1");
		assertThat(fresh.history()).extracting("type").contains("VERSION_MARKER");
		Engines.assertReplays(safe, fresh.runId());
	}

}
