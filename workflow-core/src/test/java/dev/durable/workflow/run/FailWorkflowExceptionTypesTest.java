package dev.durable.workflow.run;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.WorkflowUpdateFailedException;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Exception types listed in {@code @Workflow(failWorkflowExceptionTypes)} or the engine's
 * default fail the run like an {@code ApplicationFailure}; any other exception still
 * fails the workflow task, which is retried.
 */
class FailWorkflowExceptionTypesTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** A subclass of a listed type. */
	public static class OverdrawnException extends IllegalStateException {

		public OverdrawnException(String message) {
			super(message);
		}

	}

	/**
	 * Throws what its input names; lists IllegalStateException (its subclasses included).
	 */
	@Workflow(value = "listing", failWorkflowExceptionTypes = IllegalStateException.class)
	public static class ListingWorkflow {

		static final AtomicInteger unlistedCalls = new AtomicInteger();

		@WorkflowRun
		public String run(String which) {
			switch (which) {
				case "listed" -> throw new IllegalStateException("listed failure");
				case "subclass" -> throw new OverdrawnException("balance below zero");
				case "engine-default" -> throw new IllegalArgumentException("listed by the engine");
				default -> {
					unlistedCalls.incrementAndGet();
					throw new UnsupportedOperationException("not listed");
				}
			}
		}

	}

	/** Lists nothing itself: only the engine's default applies. */
	@Workflow("plain")
	public static class PlainWorkflow {

		@WorkflowRun
		public String run(String message) {
			throw new IllegalArgumentException(message);
		}

	}

	/** Waits for signals and updates whose handlers throw a listed type. */
	@Workflow(value = "handlers", failWorkflowExceptionTypes = IllegalStateException.class)
	public static class HandlersWorkflow {

		private boolean done;

		@WorkflowRun
		public String run() {
			Workflows.await(() -> this.done);
			return "done";
		}

		@SignalMethod
		public void explode(String message) {
			throw new IllegalStateException(message);
		}

		@UpdateMethod
		public String refuse(String message) {
			throw new OverdrawnException(message);
		}

		@SignalMethod
		public void finish() {
			this.done = true;
		}

	}

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder()
			.register(ListingWorkflow.class)
			.register(PlainWorkflow.class)
			.register(HandlersWorkflow.class)
			.failWorkflowExceptionTypes(IllegalArgumentException.class));
	}

	private static ApplicationFailure failureOf(WorkflowHandle<String> handle) {
		Throwable[] caught = new Throwable[1];
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.satisfies((ex) -> caught[0] = ex);
		WorkflowFailedException failed = (WorkflowFailedException) caught[0];
		assertThat(failed.getStatus()).isEqualTo(WorkflowStatus.FAILED);
		assertThat(failed.getCause()).isInstanceOf(ApplicationFailure.class);
		return (ApplicationFailure) failed.getCause();
	}

	@Test
	void aTypeListedOnTheWorkflowFailsTheRun() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(ListingWorkflow::run, "listed", StartOptions.withId("fail-listed"));
		ApplicationFailure failure = failureOf(handle);
		assertThat(failure.getType()).isEqualTo("java.lang.IllegalStateException");
		assertThat(failure.getMessage()).isEqualTo("listed failure");
		assertThat(failure.getOriginalStackTrace()).contains("ListingWorkflow.run");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.FAILED);
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aSubclassOfAListedTypeFailsTheRun() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(ListingWorkflow::run, "subclass", StartOptions.withId("fail-subclass"));
		ApplicationFailure failure = failureOf(handle);
		assertThat(failure.getType()).isEqualTo(OverdrawnException.class.getName());
		assertThat(failure.getMessage()).isEqualTo("balance below zero");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void theEnginesDefaultAppliesToEveryWorkflowType() {
		WorkflowEngine engine = engine();
		assertThat(engine.settings().failWorkflowExceptionTypes()).containsExactly(IllegalArgumentException.class);
		WorkflowHandle<String> plain = engine.client()
			.start(PlainWorkflow::run, "from plain", StartOptions.withId("fail-plain"));
		assertThat(failureOf(plain).getType()).isEqualTo("java.lang.IllegalArgumentException");
		WorkflowHandle<String> listing = engine.client()
			.start(ListingWorkflow::run, "engine-default", StartOptions.withId("fail-engine-default"));
		assertThat(failureOf(listing).getMessage()).isEqualTo("listed by the engine");
		Engines.assertReplays(engine, plain.runId());
	}

	@Test
	void anExceptionNotListedStillFailsTheTaskAndIsRetried() {
		ListingWorkflow.unlistedCalls.set(0);
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(ListingWorkflow::run, "unlisted", StartOptions.withId("fail-unlisted"));
		await().until(() -> handle.describe().taskFailure() != null);
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(handle.describe().taskFailure()).contains("UnsupportedOperationException");
		int before = ListingWorkflow.unlistedCalls.get();
		await().until(() -> {
			// the task is retried with backoff: move the clock until it runs again
			this.engines.clock.advance(Duration.ofSeconds(1));
			return ListingWorkflow.unlistedCalls.get() > before;
		});
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
	}

	@Test
	void aListedTypeFromASignalHandlerFailsTheRun() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(HandlersWorkflow::run, StartOptions.withId("fail-signal"));
		handle.signal(HandlersWorkflow::explode, "from the signal");
		ApplicationFailure failure = failureOf(handle);
		assertThat(failure.getType()).isEqualTo("java.lang.IllegalStateException");
		assertThat(failure.getMessage()).isEqualTo("from the signal");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aListedTypeFromAnUpdateHandlerFailsOnlyThatUpdate() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(HandlersWorkflow::run, StartOptions.withId("fail-update"));
		assertThatThrownBy(() -> handle.update(HandlersWorkflow::refuse, "not now"))
			.isInstanceOf(WorkflowUpdateFailedException.class)
			.satisfies((ex) -> {
				assertThat(ex.getCause()).isInstanceOf(ApplicationFailure.class).hasMessage("not now");
				assertThat(((ApplicationFailure) ex.getCause()).getType())
					.isEqualTo(OverdrawnException.class.getName());
			});
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(handle.describe().taskFailure()).isNull();
		handle.signal(HandlersWorkflow::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("done");
		Engines.assertReplays(engine, handle.runId());
	}

}
