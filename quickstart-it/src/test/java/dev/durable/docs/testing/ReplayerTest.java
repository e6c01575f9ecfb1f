package dev.durable.docs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.durable.docs.workflows.Greeter;
import dev.durable.docs.workflows.GreetingWorkflow;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.test.WorkflowReplayer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The testing guide's replay test, on histories of the guide's {@link GreetingWorkflow}
 * exported once ({@code src/test/resources/histories}), and the failure it describes for
 * a change that is not replay-safe.
 */
class ReplayerTest {

	private final String other = read("greet-bob.json");

	// @formatter:off
	// snippet:testing-replayer
	// once, from a test or a tool: Files.writeString(path, new ObjectMapper().writeValueAsString(handle.history()));
	@Test
	void theNewCodeReplaysLastMonthsRuns() throws IOException {
	  String json = Files.readString(Path.of("src/test/resources/histories/greet-ada.json"));
	  WorkflowReplayer.replay(GreetingWorkflow.class, json);   // throws NonDeterministicWorkflowException:
	  // "Workflow task 1 of greeting run ... issued TIMER_STARTED#1 where its history holds ACTIVITY_SCHEDULED#1(greet)"
	  // ex.workflowTask() == 1, ex.recordedCommand() == "ACTIVITY_SCHEDULED#1(greet)", ex.issuedCommand() == "TIMER_STARTED#1"

	  WorkflowReplayer.replayAll(GreetingWorkflow.class, Map.of("greet-ada", json, "greet-bob", other))
	      .throwIfFailed();                               // or inspect report.failures()
	}
	// end-snippet
	// @formatter:on

	@Test
	void aChangedWorkflowFailsAsTheGuideSays() {
		assertThatExceptionOfType(NonDeterministicWorkflowException.class)
			.isThrownBy(() -> WorkflowReplayer.replay(SleepFirst.class, read("greet-ada.json")))
			.withMessageContaining("Workflow task 1 of greeting run")
			.withMessageContaining("issued TIMER_STARTED#1 where its history holds ACTIVITY_SCHEDULED#1(greet)")
			.satisfies((ex) -> {
				assertThat(ex.workflowTask()).isEqualTo(1);
				assertThat(ex.recordedCommand()).isEqualTo("ACTIVITY_SCHEDULED#1(greet)");
				assertThat(ex.issuedCommand()).isEqualTo("TIMER_STARTED#1");
			});
	}

	private static String read(String history) {
		try {
			return Files.readString(Path.of("src/test/resources/histories", history));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** {@link GreetingWorkflow} changed so that it sleeps before it greets. */
	@Workflow("greeting")
	public static class SleepFirst {

		private final Greeter greeter;

		public SleepFirst(Greeter greeter) {
			this.greeter = greeter;
		}

		@WorkflowRun
		public String run(String name) {
			Workflows.sleep(Duration.ofDays(3));
			return this.greeter.greet(name) + "!";
		}

	}

}
