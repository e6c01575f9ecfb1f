package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.WorkflowSemaphore;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.EncodedPayload;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.internal.batch.BatchWorkflow;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.worker.Engine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The engine's own workflow types {@code durable-permit} (the permits of
 * {@link WorkflowSemaphore}) and {@code durable-batch} (batch operations) is left out of
 * the type listings, the known types of errors, the startup log and the nodes' served
 * types in the stats; it still runs the semaphore.
 */
class InternalWorkflowTypeHiddenTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Holds one permit and releases it. */
	@Workflow("hidden-app")
	public static class PermitUser {

		@WorkflowRun
		public String run(String name) {
			WorkflowSemaphore.Permit permit = new WorkflowSemaphore("hidden-pool", 1).acquire(Duration.ofMinutes(5));
			permit.release();
			return name + " held slot " + permit.slot();
		}

	}

	/** A type only the other node knows. */
	@Workflow("hidden-elsewhere")
	public static class Elsewhere {

		private boolean done;

		@WorkflowRun
		public void run() {
			Workflows.await(() -> this.done);
		}

		@SignalMethod
		public void finish() {
			this.done = true;
		}

	}

	@Test
	void theSemaphoresTypeIsTheEnginesOwnAndNamedAsSuch() {
		assertThat(WorkflowRegistry.INTERNAL_TYPES).containsExactlyInAnyOrder(
				WorkflowSemaphore.PermitWorkflow.class.getAnnotation(Workflow.class).value(),
				BatchWorkflow.class.getAnnotation(Workflow.class).value());
	}

	@Test
	void listingsAndTheStartupLogNameTheApplicationsTypesOnly() {
		Logger logger = (Logger) LoggerFactory.getLogger(Engine.class);
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		logs.start();
		logger.addAppender(logs);
		WorkflowEngine engine;
		try {
			engine = this.engines.start(this.engines.builder().register(PermitUser.class));
		}
		finally {
			logger.detachAppender(logs);
		}

		assertThat(engine.workflowTypes()).extracting(WorkflowTypeInfo::name).containsExactly("hidden-app");
		assertThat(engine.workflowType("durable-permit")).isEmpty();
		assertThat(engine.workflowType("hidden-app")).isPresent();
		List<String> started = logs.list.stream()
			.map(ILoggingEvent::getFormattedMessage)
			.filter((line) -> line.startsWith("Durable workflow engine started"))
			.toList();
		assertThat(started).singleElement().asString().contains("hidden-app").doesNotContain("durable-permit");
		assertThat(engine.stats(Duration.ofMinutes(5)).nodes()).singleElement()
			.satisfies((node) -> assertThat(node.servedTypes()).containsExactly("hidden-app"));
	}

	@Test
	void errorsThatListKnownTypesLeaveItOut() {
		WorkflowEngine elsewhere = this.engines.start(this.engines.builder().register(Elsewhere.class).worker(false));
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(PermitUser.class));

		assertThatThrownBy(() -> engine.client().start("no-such-type", null, StartOptions.DEFAULT))
			.isInstanceOf(UnknownWorkflowTypeException.class)
			.hasMessageContaining("hidden-app")
			.hasMessageNotContaining("durable-permit");
		// a run of a type this node does not know (started by a client-only node that
		// declares it):
		// the message names the types this node knows
		elsewhere.client().start("hidden-elsewhere", null, StartOptions.withId("elsewhere-1"));
		EncodedPayload nothing = (type) -> null;
		assertThatThrownBy(() -> engine.client().handle("elsewhere-1").signalEncoded("finish", nothing, null))
			.isInstanceOf(UnknownWorkflowTypeException.class)
			.hasMessageContaining("known types: [hidden-app]");
	}

	@Test
	void theSemaphoreStillRunsItsPermits() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(PermitUser.class));

		WorkflowHandle<String> user = engine.client().start(PermitUser::run, "u", StartOptions.withId("user-1"));

		assertThat(user.result(Duration.ofSeconds(30))).isEqualTo("u held slot 0");
		assertThat(engine.client()
			.handle(WorkflowSemaphore.permitWorkflowId("hidden-pool", "0"))
			.describe()
			.workflowType()).isEqualTo("durable-permit");
		Engines.assertReplays(engine, user.runId());
	}

}
