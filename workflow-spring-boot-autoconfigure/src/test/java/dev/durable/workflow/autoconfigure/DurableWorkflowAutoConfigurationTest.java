package dev.durable.workflow.autoconfigure;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.autoconfigure.broken.badactivity.BadActivityConfiguration;
import dev.durable.workflow.autoconfigure.broken.duplicate.DuplicateConfiguration;
import dev.durable.workflow.autoconfigure.broken.norun.NoRunConfiguration;
import dev.durable.workflow.autoconfigure.greeting.Greeter;
import dev.durable.workflow.autoconfigure.greeting.GreetingConfiguration;
import dev.durable.workflow.autoconfigure.greeting.GreetingWorkflow;
import dev.durable.workflow.autoconfigure.transactional.TransactionalConfiguration;
import dev.durable.workflow.autoconfigure.transactional.TransactionalWorkflow;
import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowTypeInfo;
import dev.durable.workflow.failure.InvalidWorkflowDefinitionException;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;

/**
 * Tests for {@link DurableWorkflowAutoConfiguration}, on a real (embedded) PostgreSQL;
 * each test has its own schema.
 */
class DurableWorkflowAutoConfigurationTest {

	private static final AtomicInteger SCHEMAS = new AtomicInteger();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class))
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withPropertyValues("durable.workflow.schema=" + newSchema(), "durable.workflow.worker.poll-interval=100ms");

	private static String newSchema() {
		return "autoconfig" + SCHEMAS.incrementAndGet() + "_" + Long.toHexString(System.nanoTime() & 0xFFFFFF);
	}

	@Test
	void providesAStartedEngineAClientAndTheActivityBeans() {
		this.runner.withUserConfiguration(GreetingConfiguration.class)
			.withPropertyValues("durable.workflow.namespace=greetings", "durable.workflow.worker.max-cached-runs=7",
					"durable.workflow.worker.task-queues=default,other", "durable.workflow.max-payload-size=1MB",
					"durable.workflow.retention=3d", "durable.workflow.worker.task-timeout=3s",
					"durable.workflow.worker.cache-idle-timeout=2m", "durable.workflow.history.suggested-events=100",
					"durable.workflow.history.max-size=1MB")
			.run((context) -> {
				assertThat(context).hasSingleBean(WorkflowEngine.class)
					.hasSingleBean(WorkflowClient.class)
					.hasSingleBean(ActivityCompletionClient.class)
					.hasSingleBean(WorkflowEngineLifecycle.class)
					.hasSingleBean(DurableWorkflowProperties.class)
					.hasSingleBean(Greeter.class)
					.doesNotHaveBean(GreetingWorkflow.class);
				WorkflowEngine engine = context.getBean(WorkflowEngine.class);
				assertThat(engine.isRunning()).isTrue();
				// the application's types: the engine's own durable-permit (the
				// semaphore's) is left out
				assertThat(engine.workflowTypes()).extracting(WorkflowTypeInfo::name).containsExactly("greeting");
				var config = engine.settings();
				assertThat(config.namespace()).isEqualTo("greetings");
				assertThat(config.schema()).startsWith("autoconfig");
				assertThat(config.maxCachedRuns()).isEqualTo(7);
				assertThat(config.taskQueues()).containsExactlyInAnyOrder("default", "other");
				assertThat(config.maxPayloadBytes()).isEqualTo(1024 * 1024);
				assertThat(config.pollInterval()).isEqualTo(Duration.ofMillis(100));
				assertThat(config.retention()).isEqualTo(Duration.ofDays(3));
				assertThat(config.taskTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(config.cacheIdleTimeout()).isEqualTo(Duration.ofMinutes(2));
				assertThat(config.historyLimits().suggestEvents()).isEqualTo(100);
				assertThat(config.historyLimits().maxBytes()).isEqualTo(1024 * 1024);
				assertThat(config.historyLimits().maxEvents()).isEqualTo(51_200);
			});
	}

	@Test
	void runsAWorkflowEndToEndThroughTheClient() {
		this.runner.withUserConfiguration(GreetingConfiguration.class).run((context) -> {
			WorkflowClient client = context.getBean(WorkflowClient.class);
			WorkflowHandle<String> handle = client.start(GreetingWorkflow::run, "ada",
					StartOptions.withId("greeting-" + UUID.randomUUID()));
			assertThat(handle.result(Duration.ofSeconds(30))).isEqualTo("Hello ada! Bye ada!");
			// the injected activities were the durable proxies: their calls are in the
			// history
			assertThat(handle.history()).extracting(HistoryEvent::type)
				.contains("ACTIVITY_SCHEDULED", "TIMER_STARTED", "TIMER_FIRED", "WORKFLOW_COMPLETED");
			Greeter greeter = context.getBean(Greeter.class);
			assertThat(greeter.calls()).isEqualTo(1);
			assertThat(greeter.client()).isSameAs(client);
		});
	}

	@Test
	void stopsTheEngineWhenTheContextCloses() {
		this.runner.withUserConfiguration(GreetingConfiguration.class).run((context) -> {
			WorkflowEngine engine = context.getBean(WorkflowEngine.class);
			assertThat(engine.isRunning()).isTrue();
			((ConfigurableApplicationContext) context.getSourceApplicationContext()).close();
			assertThat(engine.isRunning()).isFalse();
		});
	}

	@Test
	void activityBeanOfTheApplicationIsNotRegisteredTwice() {
		this.runner.withUserConfiguration(GreetingConfiguration.class)
			.withBean("myGreeter", Greeter.class, () -> new Greeter(null))
			.run((context) -> assertThat(context).hasSingleBean(Greeter.class).hasBean("myGreeter"));
	}

	@Test
	void backsOffFromAnEngineOfTheApplication() {
		WorkflowEngine own = WorkflowEngine.builder()
			.dataSource(EmbeddedPostgresSupport.dataSource())
			.schema(newSchema())
			.build();
		this.runner.withUserConfiguration(GreetingConfiguration.class)
			.withBean("ownEngine", WorkflowEngine.class, () -> own)
			.run((context) -> {
				assertThat(context).hasSingleBean(WorkflowEngine.class).hasBean("ownEngine");
				assertThat(context.getBean(WorkflowEngine.class)).isSameAs(own);
				// the lifecycle and the client are built on the application's engine
				assertThat(own.isRunning()).isTrue();
				assertThat(context).hasSingleBean(WorkflowClient.class);
			});
		own.shutdown();
	}

	@Test
	void backsOffFromAClientOfTheApplication() {
		WorkflowClient own = mock(WorkflowClient.class);
		this.runner.withUserConfiguration(GreetingConfiguration.class)
			.withBean("ownClient", WorkflowClient.class, () -> own)
			.run((context) -> {
				assertThat(context).hasSingleBean(WorkflowClient.class);
				assertThat(context.getBean(WorkflowClient.class)).isSameAs(own);
				assertThat(context.getBean(Greeter.class).client()).isSameAs(own);
			});
	}

	@Test
	void theActivityCompletionClientIsTheWorkflowClientsLookedUpOnEachCall() {
		WorkflowClient own = mock(WorkflowClient.class);
		ActivityCompletionClient completion = mock(ActivityCompletionClient.class);
		given(own.activityCompletion()).willReturn(completion);
		given(completion.complete("token-1", "done")).willReturn(true);
		this.runner.withUserConfiguration(GreetingConfiguration.class)
			.withBean("ownClient", WorkflowClient.class, () -> own)
			// an activity may take the completion client: creating it does not create the
			// engine
			.withBean(Callbacks.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(ActivityCompletionClient.class);
				verifyNoInteractions(own);
				assertThat(context.getBean(Callbacks.class).completion().complete("token-1", "done")).isTrue();
				verify(completion).complete("token-1", "done");
			});
	}

	@Test
	void backsOffFromAnActivityCompletionClientOfTheApplication() {
		ActivityCompletionClient own = mock(ActivityCompletionClient.class);
		this.runner.withUserConfiguration(GreetingConfiguration.class)
			.withBean("ownCompletion", ActivityCompletionClient.class, () -> own)
			.run((context) -> assertThat(context.getBean(ActivityCompletionClient.class)).isSameAs(own));
	}

	/** An activity that finishes other attempts: it depends on the completion client. */
	@Activity
	public static class Callbacks {

		private final ActivityCompletionClient completion;

		public Callbacks(ActivityCompletionClient completion) {
			this.completion = completion;
		}

		public void noop() {
		}

		ActivityCompletionClient completion() {
			return this.completion;
		}

	}

	@Test
	void rejectsATransactionalWorkflowAtStartup() {
		this.runner.withUserConfiguration(TransactionalConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(BeanCreationException.class)
				.rootCause()
				.isInstanceOf(InvalidWorkflowDefinitionException.class)
				.hasMessageContaining("@Transactional is not supported on workflow classes")
				.hasMessageContaining("method run of " + TransactionalWorkflow.class.getName())
				.hasMessageContaining("@Activity");
		});
	}

	@Test
	void rejectsTwoWorkflowsOfOneTypeName() {
		this.runner.withUserConfiguration(DuplicateConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("Workflow type 'twin' is declared by both")
				.hasMessageContaining("FirstTwin")
				.hasMessageContaining("SecondTwin"));
	}

	@Test
	void rejectsAWorkflowWithoutARunMethod() {
		this.runner.withUserConfiguration(NoRunConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("Aimless has no public @WorkflowRun method"));
	}

	@Test
	void rejectsAnActivityMethodWhosePayloadCannotBeRecorded() {
		this.runner.withUserConfiguration(BadActivityConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("upload(java.io.InputStream)")
				.hasMessageContaining("cannot be a durable payload"));
	}

	@Test
	void needsADataSource() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class))
			.withUserConfiguration(GreetingConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(WorkflowEngine.class)
				.doesNotHaveBean(WorkflowClient.class));
	}

}
