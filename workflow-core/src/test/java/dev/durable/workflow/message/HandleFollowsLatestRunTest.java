package dev.durable.workflow.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A handle from {@code start()} or {@code handle(workflowId)} addresses the latest run
 * for every call, so it reaches the run a continue-as-new started;
 * {@code handle(workflowId, runId)} stays on its run (issue 18).
 */
class HandleFollowsLatestRunTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/**
	 * Continues as new once after the "advance" signal; the second run waits for the note
	 * "finish".
	 */
	@Workflow("phased")
	public static class Phased {

		private int generation;

		private boolean advance;

		private final List<String> notes = new ArrayList<>();

		@WorkflowRun
		public String run(int generation) {
			this.generation = generation;
			if (generation == 1) {
				Workflows.await(() -> this.advance);
				Workflows.continueAsNew(generation + 1);
			}
			Workflows.await(() -> this.notes.contains("finish"));
			return String.join(",", this.notes);
		}

		@SignalMethod
		public void advance() {
			this.advance = true;
		}

		@SignalMethod
		public void note(String note) {
			this.notes.add(note);
		}

		@QueryMethod
		public int generation() {
			return this.generation;
		}

		@QueryMethod
		public List<String> notes() {
			return List.copyOf(this.notes);
		}

		@UpdateMethod
		public String mark(String mark) {
			this.notes.add(mark);
			return this.generation + ":" + mark;
		}

	}

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder().register(Phased.class));
	}

	/** Starts a workflow and lets it continue as new; returns its first run id. */
	private static UUID continued(WorkflowEngine engine, WorkflowHandle<?> handle) {
		UUID first = handle.runId();
		handle.signal(Phased::advance);
		WorkflowHandle<Object> pinned = engine.client().handle(handle.workflowId(), first);
		await().until(() -> pinned.describe().status() == WorkflowStatus.CONTINUED_AS_NEW);
		return first;
	}

	/** Signal, query and update through the handle reach the second run. */
	private static void messagesReachTheSecondRun(WorkflowHandle<?> handle) {
		assertThat(handle.query(Phased::generation)).isEqualTo(2);
		handle.signal(Phased::note, "signaled");
		await().until(() -> handle.query(Phased::notes).contains("signaled"));
		assertThat(handle.update(Phased::mark, "updated")).isEqualTo("2:updated");
		assertThat(handle.query(Phased::notes)).containsExactly("signaled", "updated");
	}

	@Test
	void theStartHandleFollowsTheContinuedRun() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client().start(Phased::run, 1, StartOptions.withId("phased-start"));
		UUID first = continued(engine, handle);

		messagesReachTheSecondRun(handle);
		// runId() stays the run the start created; describe() reads the latest
		assertThat(handle.runId()).isEqualTo(first);
		UUID second = handle.describe().runId();
		assertThat(second).isNotEqualTo(first);
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);

		handle.cancel("enough");
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.satisfies(
					(ex) -> assertThat(((WorkflowFailedException) ex).getStatus()).isEqualTo(WorkflowStatus.CANCELED));
		assertThat(handle.describe().runId()).isEqualTo(second);
		// the latest run is closed now: a signal through the unpinned handle is refused
		// as well
		assertThatThrownBy(() -> handle.signal(Phased::note, "late")).isInstanceOf(WorkflowClosedException.class);
		Engines.assertReplays(engine, first);
		Engines.assertReplays(engine, second);
	}

	@Test
	void aHandleByWorkflowIdFollowsTheContinuedRun() {
		WorkflowEngine engine = engine();
		engine.client().start(Phased::run, 1, StartOptions.withId("phased-id"));
		WorkflowHandle<Object> handle = engine.client().handle("phased-id");
		UUID first = continued(engine, handle);
		assertThat(first).as("runId() of a handle by workflow id: the latest run when asked").isNotNull();

		messagesReachTheSecondRun(handle);
		UUID second = handle.runId();
		assertThat(second).isNotEqualTo(first).isEqualTo(handle.describe().runId());
		handle.terminate("stop");
		assertThat(engine.client().handle("phased-id", second).describe().status())
			.isEqualTo(WorkflowStatus.TERMINATED);
		Engines.assertReplays(engine, second);
	}

	@Test
	void aHandleWithTheFirstRunIdStaysOnIt() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> started = engine.client().start(Phased::run, 1, StartOptions.withId("phased-pinned"));
		UUID first = continued(engine, started);
		WorkflowHandle<Object> pinned = engine.client().handle("phased-pinned", first);

		assertThatThrownBy(() -> pinned.signal(Phased::note, "to the first run"))
			.isInstanceOf(WorkflowClosedException.class)
			.hasMessageContaining(first.toString());
		assertThatThrownBy(() -> pinned.cancel("to the first run")).isInstanceOf(WorkflowClosedException.class);
		assertThat(pinned.describe().runId()).isEqualTo(first);
		assertThat(pinned.runId()).isEqualTo(first);
		// nothing reached the open run
		assertThat(started.query(Phased::notes)).isEmpty();
		assertThat(started.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		started.terminate("done");
	}

}
