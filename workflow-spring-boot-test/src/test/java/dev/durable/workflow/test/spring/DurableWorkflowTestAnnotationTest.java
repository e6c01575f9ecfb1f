package dev.durable.workflow.test.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.test.TimeSkipper;
import dev.durable.workflow.test.spring.app.ReminderApplication;
import dev.durable.workflow.test.spring.app.ReminderWorkflow;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(classes = ReminderApplication.class)
@DurableWorkflowTest
class DurableWorkflowTestAnnotationTest {

	@Autowired
	private WorkflowClient client;

	@Autowired
	private TimeSkipper time;

	@Test
	void aFortyEightHourWorkflowFinishesInSeconds() {
		Instant start = this.time.currentTime();
		long began = System.nanoTime();
		WorkflowHandle<String> handle = this.client.start(ReminderWorkflow::run, "ada",
				StartOptions.withId("remind-ada"));
		String result = handle.result();
		Duration wall = Duration.ofNanos(System.nanoTime() - began);
		assertThat(result).startsWith("reminded ada at ");
		// the mailer runs after the 48 hours, and its real time counts on the clock (a
		// few ms)
		assertThat(Instant.parse(result.substring("reminded ada at ".length())))
			.isBetween(start.plus(Duration.ofHours(48)), start.plus(Duration.ofHours(48)).plusSeconds(10));
		assertThat(wall).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void sleepMovesTimeBeforeASignal() {
		Instant start = this.time.currentTime();
		WorkflowHandle<String> handle = this.client.start(ReminderWorkflow::run, "bob",
				StartOptions.withId("remind-bob"));
		this.time.sleep(Duration.ofHours(20));
		handle.signal(ReminderWorkflow::done);
		assertThat(handle.result()).isEqualTo("done at " + start.plus(Duration.ofHours(20)));
	}

}
