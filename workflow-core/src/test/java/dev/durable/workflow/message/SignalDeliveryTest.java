package dev.durable.workflow.message;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
 * Signals without a handler: buffered, taken FIFO per name, idempotent with a key,
 * rejected by closed runs.
 */
@Timeout(120)
class SignalDeliveryTest extends SignalDeliveryFixture {

	// ---- buffered
	// ----------------------------------------------------------------------------

	@Test
	void aSignalSentBeforeTheWorkflowWaitsForItIsKeptEvenAcrossARestart() {
		WorkflowEngine first = worker();
		WorkflowHandle<String> handle = first.client().start(LateReceiver::run, StartOptions.withId("late"));
		await().until(() -> this.engines.count("timer") == 1);

		handle.signal("item", "early");
		// recorded in history while the workflow still sleeps, nothing waits for it yet
		await().until(() -> types(handle).contains("SIGNAL_RECEIVED"));
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(this.engines.count("inbox")).isZero();

		// the buffer is workflow state: rebuilt by replay on another node
		first.shutdown();
		WorkflowEngine second = worker();
		this.engines.clock.advance(Duration.ofHours(1));
		// the result through the serving node: the stopped one is not told when the run
		// closes
		assertThat(second.client().handle("late", String.class).result(Duration.ofSeconds(10))).isEqualTo("early");
		assertThat(types(handle)).containsSubsequence("TIMER_STARTED", "SIGNAL_RECEIVED", "TIMER_FIRED",
				"WORKFLOW_COMPLETED");
		Engines.assertReplays(second, handle.runId());
	}

	// ---- FIFO per name
	// -----------------------------------------------------------------------

	@Test
	void signalsOfOneNameAreTakenInOrderOnePerReceiveAndNamesAreIndependent() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client().start(FifoReceiver::run, StartOptions.withId("fifo"));
		await().until(() -> this.engines.count("timer") == 1);
		handle.signal("a", "a1");
		handle.signal("b", "b1");
		handle.signal("a", "a2");
		handle.signal("b", "b2");
		handle.signal("a", "a3");
		await().until(() -> count(handle, "SIGNAL_RECEIVED") == 5);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("b1", "a1", "a2", "a3", "b2");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void signalsArrivingOneByOneWhileTheWorkflowWaitsAreTakenInOrder() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client()
			.start(Receiver::run, 3, StartOptions.withId("one-by-one"));
		await().until(() -> handle.describe().workflowTasks() == 1);
		handle.signal("item", "first");
		await().until(() -> handle.query(Receiver::received).size() == 1);
		handle.signal("item", "second");
		handle.signal("item", "third");
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("first", "second", "third");
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- idempotent with a key
	// ---------------------------------------------------------------

	@Test
	void aRetriedSendWithTheSameKeyBuffersNothingEvenAfterTheFirstWasConsumed() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client().start(Receiver::run, 2, StartOptions.withId("keyed"));
		handle.signal("item", "a", "key-1");
		handle.signal("item", "a", "key-1"); // the sender retries before the first was
												// consumed
		await().until(() -> handle.query(Receiver::received).equals(List.of("a")));
		handle.signal("item", "a", "key-1"); // and again after it was consumed
		assertThat(this.engines.count("inbox")).as("a duplicate writes nothing to the inbox").isZero();
		handle.signal("item", "b", "key-2");
		// a buffered duplicate would have been taken before "b"
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("a", "b");
		assertThat(count(handle, "SIGNAL_RECEIVED")).isEqualTo(2);
		assertThat(signalKeys()).isEqualTo(2);
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void keysAreScopedToTheWorkflowId() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> one = engine.client().start(Receiver::run, 1, StartOptions.withId("scope-1"));
		WorkflowHandle<List<String>> two = engine.client().start(Receiver::run, 1, StartOptions.withId("scope-2"));
		one.signal("item", "for one", "shared-key");
		two.signal("item", "for two", "shared-key");
		assertThat(one.result(Duration.ofSeconds(10))).containsExactly("for one");
		assertThat(two.result(Duration.ofSeconds(10))).containsExactly("for two");
		assertThat(signalKeys()).isEqualTo(2);
		Engines.assertReplays(engine, one.runId());
		Engines.assertReplays(engine, two.runId());
	}

	// ---- terminal runs reject signals
	// --------------------------------------------------------

	@Test
	void closedRunsRejectSignalsAndNothingIsWritten() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> completed = engine.client()
			.start(Terminal::run, "complete", StartOptions.withId("closed-completed"));
		assertThat(completed.result(Duration.ofSeconds(10))).isEqualTo("done");

		WorkflowHandle<String> failed = engine.client()
			.start(Terminal::run, "fail", StartOptions.withId("closed-failed"));
		assertThatThrownBy(() -> failed.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class);

		WorkflowHandle<String> canceled = engine.client()
			.start(Terminal::run, "wait", StartOptions.withId("closed-canceled"));
		await().until(() -> canceled.describe().workflowTasks() == 1);
		canceled.cancel("no longer needed");
		assertThatThrownBy(() -> canceled.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class);

		WorkflowHandle<String> terminated = engine.client()
			.start(Terminal::run, "wait", StartOptions.withId("closed-terminated"));
		await().until(() -> terminated.describe().workflowTasks() == 1);
		terminated.terminate("stop");

		List<WorkflowHandle<String>> closed = List.of(completed, failed, canceled, terminated);
		assertThat(closed).extracting((h) -> h.describe().status())
			.containsExactly(WorkflowStatus.COMPLETED, WorkflowStatus.FAILED, WorkflowStatus.CANCELED,
					WorkflowStatus.TERMINATED);
		WorkflowEngine client = clientOnly();
		for (WorkflowHandle<String> handle : closed) {
			int events = handle.history().size();
			long inboxSeq = this.engines.jdbc()
				.queryForObject("SELECT inbox_seq FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
						Long.class, handle.runId());
			assertThatThrownBy(() -> handle.signal("never", "too late")).isInstanceOf(WorkflowClosedException.class)
				.hasMessageContaining(handle.describe().status().name());
			assertThatThrownBy(() -> handle.signal("never", "too late", "late-key"))
				.isInstanceOf(WorkflowClosedException.class);
			// the same from a node that does not know the workflow type, by a handle on
			// the workflow id
			assertThatThrownBy(() -> client.client().handle(handle.workflowId()).signal("never", "too late"))
				.isInstanceOf(WorkflowClosedException.class);
			assertThat(handle.history()).hasSize(events);
			assertThat(this.engines.jdbc()
				.queryForObject("SELECT inbox_seq FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
						Long.class, handle.runId()))
				.isEqualTo(inboxSeq);
		}
		assertThat(this.engines.count("inbox")).isZero();
		assertThat(signalKeys()).as("the key of a rejected signal is not kept").isZero();
		closed.forEach((h) -> Engines.assertReplays(engine, h.runId()));
	}

}
