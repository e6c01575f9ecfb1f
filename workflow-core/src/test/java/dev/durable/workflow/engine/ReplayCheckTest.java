package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.ReplayCheckReport.FailureKind;
import dev.durable.workflow.engine.ReplayCheckReport.RunFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The replay check before a deploy: the code of a node replays the stored (or exported)
 * histories of its types and names every run it would not replay, with the first
 * mismatch, without changing anything; unchanged and {@code getVersion}-guarded code
 * passes.
 */
class ReplayCheckTest {

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

	}

	@Workflow("shipment")
	public static class Deployed {

		private final Steps steps;

		public Deployed(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(int hours) {
			String a = this.steps.first();
			Workflows.sleep(Duration.ofHours(hours));
			return a;
		}

	}

	/** The first step replaced without a version: runs of {@link Deployed} break. */
	@Workflow("shipment")
	public static class ChangedUnsafely {

		private final Steps steps;

		public ChangedUnsafely(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(int hours) {
			String a = this.steps.second();
			Workflows.sleep(Duration.ofHours(hours));
			return a;
		}

	}

	/** The same change guarded by a version: old runs keep the first step. */
	@Workflow("shipment")
	public static class ChangedSafely {

		private final Steps steps;

		public ChangedSafely(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(int hours) {
			int version = Workflows.getVersion("second-step", Workflows.DEFAULT_VERSION, 1);
			String a = (version == Workflows.DEFAULT_VERSION) ? this.steps.first() : this.steps.second();
			Workflows.sleep(Duration.ofHours(hours));
			return a;
		}

	}

	@Workflow("invoice")
	public static class Invoice {

		@WorkflowRun
		public String run() {
			Workflows.sleep(Duration.ofHours(1));
			return "sent";
		}

	}

	/**
	 * Three open runs of the deployed code and one closed, as the old build left them.
	 */
	private List<WorkflowHandle<String>> runsOfTheDeployedCode() {
		WorkflowEngine deployed = this.engines
			.start(this.engines.builder().register(Deployed.class, Invoice.class).registerActivities(new Steps()));
		WorkflowHandle<String> closed = deployed.client()
			.start(Deployed::run, 1, StartOptions.withId("shipment-closed"));
		List<WorkflowHandle<String>> open = List.of(
				deployed.client().start(Deployed::run, 48, StartOptions.withId("shipment-a")),
				deployed.client().start(Deployed::run, 48, StartOptions.withId("shipment-b")),
				deployed.client().start(Deployed::run, 48, StartOptions.withId("shipment-c")));
		deployed.client().start(Invoice::run, StartOptions.withId("invoice-1"));
		await().until(() -> this.engines.count("timer") == 5);
		this.engines.clock.advance(Duration.ofHours(2));
		await().until(() -> closed.describe().status() == WorkflowStatus.COMPLETED);
		deployed.shutdown();
		return open;
	}

	/** A node of the new build, not started: the check needs no worker. */
	private WorkflowEngine newBuild(Class<?> shipmentCode) {
		WorkflowEngine engine = this.engines.builder()
			.register(shipmentCode, Invoice.class)
			.registerActivities(new Steps())
			.build();
		return engine;
	}

	@Test
	void aChangedWorkflowIsReportedWithItsFirstMismatchAndNothingChanges() {
		runsOfTheDeployedCode();
		int history = this.engines.count("history");
		List<Map<String, Object>> runsBefore = this.engines.jdbc()
			.queryForList("SELECT run_id, epoch, owner_node, history_seq FROM " + this.engines.schema
					+ ".workflow_run ORDER BY run_id");

		try (WorkflowEngine changed = newBuild(ChangedUnsafely.class)) {
			ReplayCheckReport report = changed.checkReplay(ReplayCheckOptions.defaults());

			assertThat(report.passed()).isFalse();
			assertThat(report.failedTypes()).containsExactly("shipment");
			assertThat(report.types())
				.extracting(ReplayCheckReport.TypeResult::workflowType, ReplayCheckReport.TypeResult::checked)
				.containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("shipment", 4),
						org.assertj.core.groups.Tuple.tuple("invoice", 1));
			List<RunFailure> failures = report.failures();
			// the open runs first, newest first, then the closed one
			assertThat(failures).extracting(RunFailure::workflowId)
				.containsExactly("shipment-c", "shipment-b", "shipment-a", "shipment-closed");
			RunFailure first = failures.get(0);
			assertThat(first.kind()).isEqualTo(FailureKind.MISMATCH);
			assertThat(first.workflowType()).isEqualTo("shipment");
			assertThat(first.runId()).isNotNull();
			assertThat(first.workflowTask()).isEqualTo(1);
			assertThat(first.recordedCommand()).contains("first");
			assertThat(first.issuedCommand()).contains("second");
			assertThat(first.message()).contains("Workflow task 1 of shipment");
			assertThat(report.summary()).startsWith(
					"4 of 5 histories of 2 workflow types do not replay on this code (shipment); first, shipment shipment-c: ");
		}
		assertThat(this.engines.count("history")).as("the check writes no history").isEqualTo(history);
		assertThat(this.engines.jdbc()
			.queryForList("SELECT run_id, epoch, owner_node, history_seq FROM " + this.engines.schema
					+ ".workflow_run ORDER BY run_id"))
			.as("nor claims or changes a run")
			.isEqualTo(runsBefore);
	}

	@Test
	void unchangedCodeAndAVersionGuardedChangePass() {
		runsOfTheDeployedCode();
		try (WorkflowEngine same = newBuild(Deployed.class); WorkflowEngine safe = newBuild(ChangedSafely.class)) {
			ReplayCheckReport unchanged = same.checkReplay(ReplayCheckOptions.defaults());
			assertThat(unchanged.passed()).isTrue();
			assertThat(unchanged.checked()).isEqualTo(5);
			assertThat(unchanged.summary())
				.isEqualTo("5 histories of 2 workflow types: every one replays on this code");

			assertThat(safe.checkReplay(ReplayCheckOptions.defaults()).passed()).isTrue();
		}
	}

	@Test
	void theSampleIsTheNewestRunsOpenOnesFirstAndCanBeOnlyOpenRuns() {
		runsOfTheDeployedCode();
		try (WorkflowEngine changed = newBuild(ChangedUnsafely.class)) {
			assertThat(
					changed.checkReplay(ReplayCheckOptions.defaults().withWorkflowTypes("shipment").withSampleSize(2))
						.failures())
				.extracting(RunFailure::workflowId)
				.containsExactly("shipment-c", "shipment-b");
			ReplayCheckReport open = changed
				.checkReplay(ReplayCheckOptions.defaults().withWorkflowTypes("shipment").withOpenRunsOnly(true));
			assertThat(open.checked()).isEqualTo(3);
			assertThat(open.failures()).extracting(RunFailure::workflowId).doesNotContain("shipment-closed");
		}
	}

	@Test
	void exportedHistoriesAreCheckedByTheTypeTheyName() {
		List<WorkflowHandle<String>> open = runsOfTheDeployedCode();
		Map<String, List<HistoryEvent>> exported = new LinkedHashMap<>();
		exported.put("a.json", open.get(0).history());
		try (WorkflowEngine changed = newBuild(ChangedUnsafely.class);
				WorkflowEngine shipmentsOnly = this.engines.builder()
					.register(ChangedSafely.class)
					.registerActivities(new Steps())
					.build()) {
			exported.put("invoice.json", changed.client().handle("invoice-1").history());
			exported.put("not-a-run.json", List.of());
			ReplayCheckReport report = changed.checkReplay(exported);
			assertThat(report.checked()).isEqualTo(3);
			assertThat(report.failures()).extracting(RunFailure::workflowId, RunFailure::kind)
				.containsExactly(org.assertj.core.groups.Tuple.tuple("shipment-a", FailureKind.MISMATCH),
						org.assertj.core.groups.Tuple.tuple("not-a-run.json", FailureKind.ERROR));

			ReplayCheckReport elsewhere = shipmentsOnly.checkReplay(exported);
			assertThat(elsewhere.failures()).extracting(RunFailure::workflowId, RunFailure::kind)
				.containsExactly(org.assertj.core.groups.Tuple.tuple("invoice-1", FailureKind.UNKNOWN_TYPE),
						org.assertj.core.groups.Tuple.tuple("not-a-run.json", FailureKind.ERROR));
		}
	}

	@Test
	void aTypeTheNodeDoesNotRegisterOrABadSampleIsRefused() {
		try (WorkflowEngine node = newBuild(Deployed.class)) {
			assertThatThrownBy(() -> node.checkReplay(ReplayCheckOptions.defaults().withWorkflowTypes("refund")))
				.isInstanceOf(UnknownWorkflowTypeException.class)
				.hasMessageContaining("'refund' is not registered on this node");
		}
		assertThatThrownBy(() -> ReplayCheckOptions.defaults().withSampleSize(0))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> ReplayCheckOptions.defaults().withSampleSize(1001))
			.isInstanceOf(IllegalArgumentException.class);
	}

}
