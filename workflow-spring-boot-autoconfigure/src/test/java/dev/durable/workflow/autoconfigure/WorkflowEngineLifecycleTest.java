package dev.durable.workflow.autoconfigure;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

import dev.durable.workflow.autoconfigure.greeting.Greeter;
import dev.durable.workflow.autoconfigure.greeting.GreetingConfiguration;
import dev.durable.workflow.autoconfigure.greeting.GreetingWorkflow;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link WorkflowEngineLifecycle}: the node takes no new work from the moment its context
 * begins to close, while components of later phases (a web server draining its requests)
 * still stop; a child context's close leaves it serving.
 */
class WorkflowEngineLifecycleTest {

	private static final AtomicInteger SCHEMAS = new AtomicInteger();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class))
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withUserConfiguration(GreetingConfiguration.class)
		.withPropertyValues(
				"durable.workflow.schema=lifecycle" + SCHEMAS.incrementAndGet() + "_"
						+ Long.toHexString(System.nanoTime() & 0xFFFFFF),
				"durable.workflow.worker.poll-interval=100ms");

	@Test
	void aWorkflowStartedWhileAnEarlierPhaseStopsStartsNoActivityOnTheClosingNode() {
		AtomicReference<Greeter> greeter = new AtomicReference<>();
		AtomicReference<WorkflowHandle<String>> started = new AtomicReference<>();
		this.runner.withBean(DrainingComponent.class, () -> new DrainingComponent(started)).run((context) -> {
			context.getBean(DrainingComponent.class).client = context.getBean(WorkflowClient.class);
			greeter.set(context.getBean(Greeter.class));
		});
		assertThat(started.get()).as("a run started during the close").isNotNull();
		// the engine's stop would have waited for the greeting, had it started
		assertThat(greeter.get().calls()).as("activity calls on the closing node").isZero();
	}

	@Test
	void aChildContextsCloseLeavesTheEngineServing() {
		this.runner.run((context) -> {
			try (AnnotationConfigApplicationContext child = new AnnotationConfigApplicationContext()) {
				child.setParent(context);
				child.refresh();
			}
			WorkflowHandle<String> handle = context.getBean(WorkflowClient.class)
				.start(GreetingWorkflow::run, "ada", StartOptions.withId("lifecycle-" + UUID.randomUUID()));
			assertThat(handle.result(Duration.ofSeconds(30))).isEqualTo("Hello ada! Bye ada!");
			assertThat(context.getBean(WorkflowEngine.class).isRunning()).isTrue();
		});
	}

	/**
	 * A component of a later phase than the engine's (stopped before it), like the web
	 * server's graceful shutdown: while it stops, a request it lets finish starts a run.
	 */
	static final class DrainingComponent implements SmartLifecycle {

		private final AtomicReference<WorkflowHandle<String>> started;

		private volatile boolean running;

		volatile WorkflowClient client;

		DrainingComponent(AtomicReference<WorkflowHandle<String>> started) {
			this.started = started;
		}

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			this.running = false;
			WorkflowHandle<String> handle = this.client.start(GreetingWorkflow::run, "bob",
					StartOptions.withId("draining-" + UUID.randomUUID()));
			this.started.set(handle);
			// the run's first task committed and scheduled the greeting before the
			// engine's stop
			await().atMost(Duration.ofSeconds(10))
				.until(() -> handle.history().stream().map(HistoryEvent::type).anyMatch("ACTIVITY_SCHEDULED"::equals));
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return WorkflowEngineLifecycle.PHASE + 1;
		}

	}

}
