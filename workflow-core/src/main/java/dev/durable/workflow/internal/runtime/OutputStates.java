package dev.durable.workflow.internal.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import dev.durable.workflow.WorkflowStream;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.support.OutputKeys;
import dev.durable.workflow.internal.support.Payloads;

/**
 * The run's outputs for clients: events ({@code Workflows.setEvent}) and streams
 * ({@code Workflows.stream}). Each is a command, so a replay re-issues it against history
 * and the task commit writes only what a new task recorded; a stream's next offset is
 * counted here, the same way on every replay. Payloads are not compared on replay (a
 * payload converter may encrypt with a random nonce): the key and the offset must match.
 */
public final class OutputStates {

	private final CommandRecorder commands;

	private final UUID runId;

	private final Payloads payloads;

	private final Map<String, Stream> streams = new HashMap<>();

	private boolean any;

	OutputStates(CommandRecorder commands, UUID runId, Payloads payloads) {
		this.commands = commands;
		this.runId = runId;
		this.payloads = payloads;
	}

	/** Workflows.setEvent: records the key's new value. */
	public void setEvent(String key, Object value) {
		OutputKeys.check(key, "event");
		checkCanRecord("set an event");
		Objects.requireNonNull(value, () -> "The value of event '" + key + "' must not be null");
		byte[] encoded = this.payloads.encode(value, value.getClass(), "the value of event '" + key + "'");
		this.commands.emit(Event.eventSet(key, encoded));
		this.any = true;
	}

	/** Workflows.stream: the run's stream of this key, the same object for every call. */
	public WorkflowStream stream(String key) {
		OutputKeys.check(key, "stream");
		return this.streams.computeIfAbsent(key, Stream::new);
	}

	/**
	 * Whether the run recorded any output so far (its close then wakes readers on other
	 * nodes).
	 */
	public boolean any() {
		return this.any;
	}

	private void checkCanRecord(String what) {
		this.commands.checkNotReadOnly(what);
		if (this.commands.closeEvent() != null) {
			throw new IllegalStateException("Run " + this.runId + " is already closing");
		}
	}

	private final class Stream implements WorkflowStream {

		private final String key;

		private long next;

		private boolean closed;

		Stream(String key) {
			this.key = key;
		}

		@Override
		public String key() {
			return this.key;
		}

		@Override
		public long write(Object value) {
			WorkflowThread.context();
			if (this.closed) {
				throw new IllegalStateException(
						"Stream '" + this.key + "' is closed; it took " + this.next + " values");
			}
			checkCanRecord("write to a stream");
			Objects.requireNonNull(value, () -> "A value written to stream '" + this.key + "' must not be null");
			byte[] encoded = OutputStates.this.payloads.encode(value, value.getClass(),
					"a value of stream '" + this.key + "'");
			long offset = this.next;
			OutputStates.this.commands.emit(Event.streamWrite(this.key, offset, encoded));
			this.next = offset + 1;
			OutputStates.this.any = true;
			return offset;
		}

		@Override
		public void close() {
			WorkflowThread.context();
			if (this.closed) {
				return;
			}
			checkCanRecord("close a stream");
			OutputStates.this.commands.emit(Event.streamClosed(this.key, this.next));
			this.closed = true;
			OutputStates.this.any = true;
		}

		@Override
		public boolean isClosed() {
			return this.closed;
		}

		@Override
		public long nextOffset() {
			return this.next;
		}

	}

}
