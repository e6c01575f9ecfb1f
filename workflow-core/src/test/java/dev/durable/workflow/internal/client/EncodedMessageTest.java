package dev.durable.workflow.internal.client;

import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.EncodedPayload;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StatementRecorder;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The gateway entry points ({@code signalEncoded}, {@code queryEncoded},
 * {@code startUpdateEncoded}, what the REST API calls): one read of the run and one
 * handler lookup per message, the payload converted to the handler's declared type, and
 * nothing stored when the run, the type, the handler or the payload is wrong.
 */
class EncodedMessageTest {

	/** A note for the board. */
	public record Note(String text) {
	}

	@Workflow(value = "encoded-board", receives = "later")
	public static class Board {

		private final List<String> notes = new ArrayList<>();

		private boolean closed;

		@WorkflowRun
		public List<String> run() {
			Workflows.await(() -> this.closed);
			return this.notes;
		}

		@SignalMethod
		public void pin(Note note) {
			this.notes.add(note.text());
		}

		@SignalMethod
		public void close() {
			this.closed = true;
		}

		@QueryMethod
		public int count(String prefix) {
			return (int) this.notes.stream().filter((n) -> n.startsWith(prefix)).count();
		}

		@UpdateMethod
		public int pinAndCount(Note note) {
			this.notes.add(note.text());
			return this.notes.size();
		}

	}

	private final Engines engines = new Engines();

	/**
	 * The types the converter was asked for, in order ({@code null} stands for "takes
	 * none").
	 */
	private final List<Type> asked = new CopyOnWriteArrayList<>();

	@AfterEach
	void close() {
		this.engines.close();
	}

	private EncodedPayload converting(Object value) {
		return (type) -> {
			this.asked.add((type != null) ? type : Void.class);
			return value;
		};
	}

	@Test
	void aSignalReadsTheRunOnceAndConvertsToTheHandlersType() {
		StatementRecorder recorder = new StatementRecorder(TestDatabase.dataSource());
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.dataSource(recorder.dataSource())
			// the statements counted are the engine's own: no once-per-connection session
			// settings among them
			.idleInTransactionTimeout(Duration.ZERO)
			.register(Board.class));
		WorkflowHandle<Object> handle = engine.client().start("encoded-board", null, StartOptions.withId("board-1"));
		handle.query("count", "", Integer.class); // the first task has run

		int before = recorder.of(Thread.currentThread()).size();
		engine.client().handle("board-1").signalEncoded("pin", converting(new Note("hello")), null);
		List<String> sent = recorder.of(Thread.currentThread())
			.stream()
			.skip(before)
			.map(StatementRecorder.Statement::sql)
			.toList();

		assertThat(this.asked).containsExactly(Note.class);
		assertThat(sent)
			.filteredOn((sql) -> sql.trim().toUpperCase().startsWith("SELECT") && sql.contains("workflow_run"))
			.as("reads of the run row for one signal: %s", sent)
			.hasSize(1);
		await().until(() -> handle.query("count", "h", Integer.class) == 1);
	}

	@Test
	void aHandlerWithoutParameterIsAskedForNoTypeAndADeclaredReceiveNameForObject() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(Board.class));
		engine.client().start("encoded-board", null, StartOptions.withId("board-2"));
		WorkflowHandle<Object> handle = engine.client().handle("board-2");

		handle.signalEncoded("later", converting("kept for receive()"), null);
		// a name nothing takes is refused before its payload is converted
		assertThatThrownBy(() -> handle.signalEncoded("noSuchHandler", converting("lost"), null))
			.isInstanceOf(UnknownHandlerException.class)
			.hasMessageContaining("noSuchHandler");
		handle.signalEncoded("close", converting(null), null);

		assertThat(this.asked).containsExactly(Object.class, Void.class);
		assertThat(handle.result(List.class)).isEmpty();
	}

	@Test
	void queriesAndUpdatesConvertTheirArgumentOnce() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(Board.class));
		engine.client().start("encoded-board", null, StartOptions.withId("board-3"));
		WorkflowHandle<Object> handle = engine.client().handle("board-3");

		int size = handle
			.startUpdateEncoded("pinAndCount", converting(new Note("one")), Integer.class,
					UpdateOptions.defaults().waitFor(UpdateStage.COMPLETED))
			.result();
		int count = handle.queryEncoded("count", converting("o"), Integer.class);

		assertThat(size).isEqualTo(1);
		assertThat(count).isEqualTo(1);
		assertThat(this.asked).containsExactly(Note.class, String.class);
	}

	@Test
	void aWrongRunTypeHandlerOrPayloadStoresNothingAndConvertsNothingItNeedNot() {
		WorkflowEngine worker = this.engines.start(this.engines.builder().register(Board.class));
		worker.client().start("encoded-board", null, StartOptions.withId("board-4"));
		// a node that does not know the type cannot convert for it
		WorkflowEngine stranger = this.engines.start(this.engines.builder().worker(false));

		assertThatThrownBy(() -> worker.client().handle("no-such-board").signalEncoded("pin", converting(null), null))
			.isInstanceOf(WorkflowNotFoundException.class);
		assertThatThrownBy(() -> stranger.client().handle("board-4").signalEncoded("pin", converting(null), null))
			.isInstanceOf(UnknownWorkflowTypeException.class);
		assertThatThrownBy(
				() -> worker.client().handle("board-4").queryEncoded("noSuchQuery", converting(null), Integer.class))
			.isInstanceOf(UnknownHandlerException.class);
		assertThat(this.asked).as("nothing converted before the run, type and handler were found").isEmpty();

		EncodedPayload bad = (type) -> {
			throw new PayloadException("not a note", false, null);
		};
		assertThatThrownBy(() -> worker.client().handle("board-4").signalEncoded("pin", bad, null))
			.isInstanceOf(PayloadException.class);
		assertThat(this.engines.count("inbox")).isZero();
		assertThat(worker.client().handle("board-4").query("count", "", Integer.class)).isZero();
	}

}
