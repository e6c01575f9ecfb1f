package dev.durable.workflow.test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.test.fixtures.RealGreeter;
import dev.durable.workflow.test.fixtures.TimeWorkflows;
import dev.durable.workflow.test.fixtures.v2.Greeting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Histories recorded by v1 of "greeting", exported as JSON, replayed against changed
 * code.
 */
class WorkflowReplayerTest {

	private static String json;

	private static List<HistoryEvent> history;

	@BeforeAll
	static void record() {
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.builder()
			.registerWorkflows(TimeWorkflows.Greeting.class)
			.registerActivities(new RealGreeter())
			.build()) {
			WorkflowHandle<String> handle = env.client()
				.start(TimeWorkflows.Greeting::run, "Ada", StartOptions.withId("greet-ada"));
			handle.result();
			history = handle.history();
			// what an application exports with its own mapper (or the REST history
			// endpoint returns)
			json = JsonMapper.builder().build().writeValueAsString(history);
		}
	}

	@Test
	void theUnchangedWorkflowReplaysItsExportedHistory() {
		assertThat(json).contains("\"WORKFLOW_STARTED\"").contains("\"runId\"");
		WorkflowReplayer.replay(TimeWorkflows.Greeting.class, json);
		WorkflowReplayer.replay(TimeWorkflows.Greeting.class, history);
	}

	@Test
	void anIncompatibleChangeIsReportedWithTheDifferingCommand() {
		assertThatThrownBy(() -> WorkflowReplayer.replay(Greeting.class, json))
			.isInstanceOfSatisfying(NonDeterministicWorkflowException.class, (ex) -> {
				assertThat(ex.workflowTask()).isEqualTo(1);
				assertThat(ex.recordedCommand()).isEqualTo("ACTIVITY_SCHEDULED#1(greet)");
				assertThat(ex.issuedCommand()).startsWith("TIMER_STARTED#1");
				assertThat(ex.getMessage()).contains("Workflow task 1 of greeting")
					.contains("ACTIVITY_SCHEDULED#1(greet)");
			});
	}

	@Test
	@SuppressWarnings("checkstyle:RegexpSinglelineJava") // two versions of Greeting
	void aChangeGuardedWithGetVersionReplays() {
		WorkflowReplayer.replay(dev.durable.workflow.test.fixtures.v3.Greeting.class, json);
	}

	@Test
	@SuppressWarnings("checkstyle:RegexpSinglelineJava") // two versions of Greeting
	void replayAllReportsEveryHistory() {
		Map<String, String> histories = new LinkedHashMap<>();
		histories.put("greet-ada", json);
		histories.put("broken", "[]");
		WorkflowReplayer.ReplayReport report = WorkflowReplayer.replayAll(Greeting.class, histories);
		assertThat(report.replayed()).isEqualTo(2);
		assertThat(report.failures().get("greet-ada")).isInstanceOf(NonDeterministicWorkflowException.class);
		assertThat(report.failures().get("broken")).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(report::throwIfFailed).hasMessageContaining("2 of 2 histories");
		assertThat(WorkflowReplayer
			.replayAll(dev.durable.workflow.test.fixtures.v3.Greeting.class, Map.of("greet-ada", json))
			.succeeded()).isTrue();
	}

}
