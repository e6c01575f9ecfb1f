package dev.durable.workflow.internal.store;

import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.EventSet;
import dev.durable.workflow.internal.history.Event.StreamClosed;
import dev.durable.workflow.internal.history.Event.StreamWrite;
import dev.durable.workflow.internal.history.Event.TopicWaitEnded;
import dev.durable.workflow.internal.history.Event.TopicWaitStarted;

/**
 * The rows of workflow events and streams: written by the commit of the workflow task
 * that recorded them (inside its transaction), read by clients. History is their source
 * of truth; these rows let a client read them without replaying the run.
 */
public final class OutputRepository {

	/**
	 * One row of a stream.
	 *
	 * @param offset its offset
	 * @param value the encoded value, or {@code null} for the end of the stream
	 */
	public record StreamRow(long offset, byte[] value) {

		/** Whether the row marks the end of the stream. */
		public boolean isEnd() {
			return this.value == null;
		}

	}

	private final JdbcTemplate jdbc;

	private final String schema;

	private final TopicWaitRegistry topicWaits;

	public OutputRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
		this.topicWaits = new TopicWaitRegistry(jdbc, schema);
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * Writes a task's outputs (EVENT_SET, STREAM_WRITE, STREAM_CLOSED), in order; inside
	 * the task's transaction.
	 */
	public void write(UUID runId, String namespace, String workflowId, Instant time, List<Event> outputs) {
		List<EventSet> events = new ArrayList<>();
		List<StreamValue> streams = new ArrayList<>();
		for (Event output : outputs) {
			switch (output) {
				case EventSet set -> events.add(set);
				case StreamWrite write -> streams.add(new StreamValue(write.key(), write.offset(), write.value()));
				case StreamClosed closed -> streams.add(new StreamValue(closed.key(), closed.offset(), null));
				default -> throw new IllegalArgumentException("Not an output: " + output.type());
			}
		}
		if (!events.isEmpty()) {
			// a key set twice in one task: the statements of a batch run in order, the
			// last value stays
			this.jdbc.batchUpdate(
					q("INSERT INTO #.workflow_event (run_id, event_key, namespace, workflow_id, value,"
							+ " updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, event_key)"
							+ " DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at"),
					events, events.size(), (PreparedStatement ps, EventSet e) -> {
						ps.setObject(1, runId);
						ps.setString(2, e.key());
						ps.setString(3, namespace);
						ps.setString(4, workflowId);
						ps.setBytes(5, e.value());
						ps.setTimestamp(6, Sql.ts(time));
					});
		}
		if (!streams.isEmpty()) {
			this.jdbc.batchUpdate(
					q("INSERT INTO #.workflow_stream (run_id, stream_key, stream_offset, value, written_at)"
							+ " VALUES (?, ?, ?, ?, ?)"),
					streams, streams.size(), (PreparedStatement ps, StreamValue e) -> {
						ps.setObject(1, runId);
						ps.setString(2, e.key());
						ps.setLong(3, e.offset());
						ps.setBytes(4, e.value());
						ps.setTimestamp(5, Sql.ts(time));
					});
		}
	}

	/**
	 * Registers and removes the waits for topic events a task began and ended
	 * (TOPIC_WAIT_STARTED, TOPIC_WAIT_ENDED), in order; inside the task's transaction.
	 */
	public void registerWaits(UUID runId, String namespace, List<Event> waits) {
		for (Event wait : waits) {
			switch (wait) {
				case TopicWaitStarted started -> this.topicWaits.register(runId, namespace, started);
				case TopicWaitEnded ended -> this.topicWaits.unregister(runId, ended.seq());
				default -> throw new IllegalArgumentException("Not a topic wait: " + wait.type());
			}
		}
	}

	/** A stream row: a written value, or a stream's end (no value). */
	private record StreamValue(String key, long offset, byte[] value) {
	}

	/** Copies a run's events to the run that continues it as new. */
	public void copyEvents(UUID from, UUID to) {
		this.jdbc.update(q("INSERT INTO #.workflow_event (run_id, event_key, namespace, workflow_id, value, updated_at)"
				+ " SELECT ?, event_key, namespace, workflow_id, value, updated_at FROM #.workflow_event WHERE run_id = ?"),
				to, from);
	}

	/** The value of an event of a run, if set. */
	public Optional<byte[]> event(UUID runId, String key) {
		List<byte[]> values = this.jdbc.query(
				q("SELECT value FROM #.workflow_event WHERE run_id = ? AND event_key = ?"), (rs, n) -> rs.getBytes(1),
				runId, key);
		return values.stream().findFirst();
	}

	/** Up to {@code limit} rows of a stream from an offset on, in order. */
	public List<StreamRow> stream(UUID runId, String key, long fromOffset, int limit) {
		return this.jdbc.query(
				q("SELECT stream_offset, value FROM #.workflow_stream WHERE run_id = ? AND stream_key = ?"
						+ " AND stream_offset >= ? ORDER BY stream_offset LIMIT ?"),
				(rs, n) -> new StreamRow(rs.getLong(1), rs.getBytes(2)), runId, key, fromOffset, limit);
	}

}
