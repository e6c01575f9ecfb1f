package dev.durable.docs.testing.boot;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.test.TimeSkipper;
import dev.durable.workflow.test.spring.DurableWorkflowTest;

import static org.assertj.core.api.Assertions.assertThat;

// @formatter:off
// snippet:testing-spring-boot
@SpringBootTest
@DurableWorkflowTest
class ReminderTest {
  @Autowired WorkflowClient client;
  @Autowired TimeSkipper time;

  @Test
  void remindsAfterFortyEightHours() {
    Instant start = time.currentTime();
    var handle = client.start(ReminderWorkflow::run, "ada", StartOptions.withId("remind-ada"));
    assertThat(handle.result()).isEqualTo("reminded ada at " + start.plus(Duration.ofHours(48)));
  }
}
// end-snippet
// @formatter:on
