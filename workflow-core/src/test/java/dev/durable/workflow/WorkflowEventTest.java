package dev.durable.workflow;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Workflows.setEvent and WorkflowHandle.getEvent: recorded in history, stored with the
 * task's commit, read by waiting clients that are woken by the commit (on another node by
 * a PostgreSQL notification), on open and closed runs.
 */
class WorkflowEventTest {

	/**
	 * Longer than any wait in these tests but shorter than the readers' safety re-read
	 * (30 s): a waiter that returns in time was woken by a notification, not by
	 * re-reading.
	 */
	private static final Duration WOKEN_WELL_BEFORE = Duration.ofSeconds(10);

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** A decision as a record value. */
	public record Decision(String by, boolean approved) {
	}

	@Workflow(value = "event-approval", receives = "decide")
	public static class ApprovalWorkflow {

		@WorkflowRun
		public String run(String document) {
			Workflows.setEvent("status", "submitted");
			Decision decision = Workflows.receive("decide", Decision.class);
			Workflows.setEvent("decision", decision);
			Workflows.setEvent("status", decision.approved() ? "approved" : "rejected");
			return document + ":" + decision.by();
		}

	}

	@Workflow(value = "event-chain", receives = "next")
	public static class ChainWorkflow {

		@WorkflowRun
		public String run(Integer round) {
			Workflows.setEvent("round-" + round, round);
			if (round < 2) {
				Workflows.continueAsNew(round + 1);
			}
			Workflows.receive("next", String.class);
			Workflows.setEvent("done", "yes");
			return "done";
		}

	}

	@Workflow("event-bad-key")
	public static class BadKeyWorkflow {

		@WorkflowRun
		public String run() {
			try {
				Workflows.setEvent("no spaces", "x");
				return "set";
			}
			catch (IllegalArgumentException ex) {
				return ex.getMessage();
			}
		}

	}

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder()
			.register(ApprovalWorkflow.class)
			.register(ChainWorkflow.class)
			.register(BadKeyWorkflow.class));
	}

	@Test
	void aWaitingClientIsWokenByTheCommitThatSetsTheEvent() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(ApprovalWorkflow::run, "doc-1", StartOptions.withId("a-1"));
		assertThat(handle.getEvent("status", String.class, WOKEN_WELL_BEFORE)).contains("submitted");

		CompletableFuture<Optional<Decision>> waiting = CompletableFuture
			.supplyAsync(() -> handle.getEvent("decision", Decision.class, Duration.ofSeconds(25)));
		await().until(() -> EngineInternals.node(engine).waiters().waiting() == 1);
		assertThat(waiting).isNotDone();
		long sent = System.nanoTime();
		handle.signal("decide", new Decision("ada", true));
		assertThat(waiting.join()).contains(new Decision("ada", true));
		assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(WOKEN_WELL_BEFORE);
		assertThat(handle.getEvent("status", String.class, Duration.ZERO)).as("set twice: the last value")
			.contains("approved");
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("doc-1:ada");
		assertThat(this.engines.count("workflow_event")).isEqualTo(2);
	}

	@Test
	void aClientOnAnotherNodeIsWokenByANotification() {
		WorkflowEngine worker = engine();
		WorkflowEngine clientOnly = this.engines.start(this.engines.builder().worker(false));
		worker.client().start(ApprovalWorkflow::run, "doc-2", StartOptions.withId("a-2"));
		WorkflowHandle<Object> remote = clientOnly.client().handle("a-2");
		assertThat(remote.getEvent("status", String.class, WOKEN_WELL_BEFORE)).contains("submitted");

		CompletableFuture<Optional<String>> waiting = CompletableFuture
			.supplyAsync(() -> remote.getEvent("status-never", String.class, Duration.ofMillis(200)));
		assertThat(waiting.join()).as("not set within the timeout").isEmpty();

		CompletableFuture<Optional<Decision>> decision = CompletableFuture
			.supplyAsync(() -> remote.getEvent("decision", Decision.class, Duration.ofSeconds(25)));
		await().until(() -> EngineInternals.node(clientOnly).waiters().waiting() == 1);
		long sent = System.nanoTime();
		worker.client().handle("a-2").signal("decide", new Decision("bob", false));
		assertThat(decision.join()).contains(new Decision("bob", false));
		assertThat(Duration.ofNanos(System.nanoTime() - sent)).as("woken by NOTIFY, not the safety re-read")
			.isLessThan(WOKEN_WELL_BEFORE);
	}

	@Test
	void closedRunsAnswerAtOnceWithTheValueOrNothing() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(ApprovalWorkflow::run, "doc-3", StartOptions.withId("a-3"));
		handle.signal("decide", new Decision("cy", false));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("doc-3:cy");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.COMPLETED);

		assertThat(handle.getEvent("status", String.class, Duration.ofSeconds(25))).contains("rejected");
		long asked = System.nanoTime();
		assertThat(handle.getEvent("never-set", String.class, Duration.ofSeconds(25))).isEmpty();
		assertThat(Duration.ofNanos(System.nanoTime() - asked)).as("a closed run sets nothing more: no wait")
			.isLessThan(Duration.ofSeconds(5));
		assertThat(engine.client().handle("a-3", handle.runId()).getEvent("decision", Decision.class, Duration.ZERO))
			.contains(new Decision("cy", false));
	}

	@Test
	void eventsAreRecordedAndAReplayStoresNothingAgain() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(ApprovalWorkflow::run, "doc-4", StartOptions.withId("a-4"));
		assertThat(handle.getEvent("status", String.class, WOKEN_WELL_BEFORE)).contains("submitted");
		engine.shutdown();

		// another node takes the run over: it replays the first task (setEvent again)
		// before the signal
		WorkflowEngine next = engine();
		WorkflowHandle<Object> again = next.client().handle("a-4");
		again.signal("decide", new Decision("dee", true));
		assertThat(again.result(String.class)).isEqualTo("doc-4:dee");
		assertThat(this.engines.jdbc()
			.queryForList("SELECT event_key FROM " + this.engines.schema + ".workflow_event ORDER BY event_key",
					String.class))
			.containsExactly("decision", "status");
		assertThat(again.history()).extracting("type").filteredOn("EVENT_SET"::equals).hasSize(3);
		Engines.assertReplays(next, handle.runId());
	}

	@Test
	void continueAsNewCarriesTheEventsToTheNextRun() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client().start(ChainWorkflow::run, 0, StartOptions.withId("chain"));
		WorkflowHandle<Object> latest = engine.client().handle("chain");
		assertThat(latest.getEvent("round-2", Integer.class, WOKEN_WELL_BEFORE)).contains(2);
		assertThat(latest.getEvent("round-0", Integer.class, Duration.ZERO)).as("carried over").contains(0);
		assertThat(engine.client().handle("chain", handle.runId()).getEvent("round-1", Integer.class, Duration.ZERO))
			.as("the first run, pinned, never set it")
			.isEmpty();
		assertThat(handle.getEvent("round-1", Integer.class, Duration.ZERO)).contains(1);

		CompletableFuture<Optional<String>> done = CompletableFuture
			.supplyAsync(() -> latest.getEvent("done", String.class, Duration.ofSeconds(25)));
		latest.signal("next", "go");
		assertThat(done.join()).contains("yes");
	}

	@Test
	void badKeysAndUnknownWorkflowsAreRefused() {
		WorkflowEngine engine = engine();
		assertThat(engine.client().execute(BadKeyWorkflow::run, StartOptions.DEFAULT)).contains("Invalid event key");
		WorkflowHandle<String> handle = engine.client()
			.start(ApprovalWorkflow::run, "doc-5", StartOptions.withId("a-5"));
		assertThatThrownBy(() -> handle.getEvent("a/b", String.class, Duration.ZERO))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid event key");
		assertThatThrownBy(() -> handle.getEvent("status", String.class, Duration.ofSeconds(-1)))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> engine.client().handle("nobody").getEvent("status", String.class, Duration.ZERO))
			.isInstanceOf(WorkflowNotFoundException.class);
		assertThat(this.engines.count("workflow_event")).as("a-5's status only").isEqualTo(1);
	}

}
