package dev.durable.workflow.test;

import java.util.List;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.testsupport.HistoryReplay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A run failed by an engine-wide {@code failWorkflowExceptionTypes} entry replays when
 * the replayer is given the same list, and does not without it (the code would fail its
 * task there).
 */
class ReplayerFailWorkflowExceptionTypesTest {

	/** Fails with an exception type that only the engine's list makes fail the run. */
	@Workflow("stock-check")
	public static class StockCheck {

		@WorkflowRun
		public String run(String item) {
			throw new NoSuchElementException("no stock of " + item);
		}

	}

	private static String json;

	@BeforeAll
	static void record() {
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.builder()
			.registerWorkflows(StockCheck.class)
			.customize((builder) -> builder.failWorkflowExceptionTypes(NoSuchElementException.class))
			.build()) {
			WorkflowHandle<String> handle = env.client()
				.start(StockCheck::run, "bolts", StartOptions.withId("stock-bolts"));
			assertThatThrownBy(handle::result).isInstanceOf(WorkflowFailedException.class);
			List<HistoryEvent> history = handle.history();
			assertThat(history).extracting(HistoryEvent::type).contains("WORKFLOW_FAILED");
			json = JsonMapper.builder().build().writeValueAsString(history);
		}
	}

	@Test
	void replaysWithTheEngineWideList() {
		WorkflowReplayer.replay(StockCheck.class, json, List.of(NoSuchElementException.class));
		// a supertype listed covers its subclasses, as on the engine
		WorkflowReplayer.replay(StockCheck.class, parse(), WorkflowReplayer.stubFactory(),
				List.of(RuntimeException.class));
	}

	@Test
	void doesNotReplayWithoutIt() {
		assertThatThrownBy(() -> WorkflowReplayer.replay(StockCheck.class, json))
			.hasStackTraceContaining("no stock of bolts");
	}

	private static List<HistoryEvent> parse() {
		return HistoryReplay.parse(json);
	}

}
