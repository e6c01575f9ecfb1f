package dev.durable.workflow.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.durable.workflow.client.QueryFailedException;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.web.app.OrderWorkflow;
import dev.durable.workflow.web.app.WebTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** An application stopped and started again on the same database: its runs go on. */
class RestartTest {

	private static ConfigurableApplicationContext start() {
		return new SpringApplicationBuilder(WebTestApplication.class).web(WebApplicationType.NONE)
			.properties("durable.workflow.schema=restart", "durable.workflow.embedded-postgres.enabled=false",
					"durable.workflow.worker.poll-interval=100ms", "durable.workflow.node.heartbeat-interval=200ms",
					"durable.workflow.node.dead-after=1s", "spring.main.banner-mode=off")
			.run();
	}

	@Test
	void runsStartedBeforeARestartFinishAfterIt() {
		try (ConfigurableApplicationContext first = start()) {
			WorkflowClient client = first.getBean(WorkflowClient.class);
			client.start(OrderWorkflow::run, new OrderWorkflow.Order("tea", 2), StartOptions.withId("restart-1"));
			client.handle("restart-1").signal("addNote", "before the restart");
			// a query before the first workflow task has committed fails: wait past it
			await().ignoreExceptionsInstanceOf(QueryFailedException.class)
				.until(() -> client.handle("restart-1").query("notes", null, java.util.List.class).size() == 1);
		}
		try (ConfigurableApplicationContext second = start()) {
			WorkflowClient client = second.getBean(WorkflowClient.class);
			client.handle("restart-1").signal("addNote", "after it");
			client.handle("restart-1").signal("finish", null);
			assertThat(client.handle("restart-1", String.class).result(Duration.ofSeconds(30)))
				.isEqualTo("2 x tea for 6 notes [before the restart, after it]");
		}
	}

}
