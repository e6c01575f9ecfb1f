package dev.durable.docs.events;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.test.TestWorkflowEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** The snippet of {@code docs/events-and-streams.md}, run. */
class EventsGuideTest {

	@Test
	void aRunPublishesAnEventAndAStream() {
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.create()) {
			env.registerWorkflows(ReportWorkflow.class).registerActivities(new ReportActivities());
			ReportRequest request = new ReportRequest(List.of("summary", "figures", "tables", "appendix"));
			assertThat(EventsGuideSnippets.readEventsAndStreams(env.client(), request)).isNotNull();
			WorkflowHandle<String> handle = env.client().handle("report-7", String.class);
			assertThat(handle.getEvent("status", String.class, Duration.ofSeconds(5))).contains("waiting-for-approval");
			try (var values = handle.readStream("progress", 0, Progress.class)) {
				assertThat(values.map((entry) -> entry.value().part())).containsExactlyElementsOf(request.parts());
			}
			handle.signal("approve", "ok");
			assertThat(handle.result()).isEqualTo("done");
			assertThat(handle.getEvent("status", String.class, Duration.ZERO)).contains("approved");
		}
	}

}
