package dev.durable.workflow.internal.store;

import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.history.EventCodec;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * What a workflow task reads: the run's history and its inbox. (Its commit is written by
 * the commit package.)
 */
public final class TaskRepository {

	private final JdbcTemplate jdbc;

	private final String schema;

	public TaskRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	public List<TaskRecord> history(UUID runId) {
		return this.jdbc.query(q("SELECT seq, created_at, events FROM #.history WHERE run_id = ? ORDER BY seq"),
				(rs, n) -> {
					byte[] events = rs.getBytes(3);
					return new TaskRecord(rs.getInt(1), Sql.instant(rs, "created_at"), EventCodec.read(events),
							events.length);
				}, runId);
	}

	/**
	 * What rebuilding a run that is not cached reads: its chain (retry policy, cron,
	 * headers) and its history.
	 *
	 * @param chain the run's chain, or {@code null}
	 * @param history its workflow tasks in order
	 */
	public record Replayable(RunChain chain, List<TaskRecord> history) {
	}

	/**
	 * The run's chain and its history in one statement (one round trip for a run taken up
	 * again after its owner stopped or evicted it): the chain is the row without a
	 * sequence number.
	 */
	public Replayable chainAndHistory(UUID runId) {
		RunChain[] chain = { null };
		List<TaskRecord> history = new java.util.ArrayList<>();
		this.jdbc.query(
				q("SELECT NULL::int AS seq, NULL::timestamptz AS created_at, options AS events"
						+ " FROM #.run_payload WHERE run_id = ? UNION ALL"
						+ " SELECT seq, created_at, events FROM #.history WHERE run_id = ? ORDER BY seq NULLS FIRST"),
				(rs) -> {
					byte[] bytes = rs.getBytes(3);
					int seq = rs.getInt(1);
					if (rs.wasNull()) {
						chain[0] = (bytes == null) ? null : InternalJson.read(bytes, RunChain.class);
					}
					else {
						history.add(new TaskRecord(seq, Sql.instant(rs, "created_at"), EventCodec.read(bytes),
								bytes.length));
					}
				}, runId, runId);
		return new Replayable(chain[0], history);
	}

	public List<InboxItem> inbox(UUID runId) {
		return this.jdbc.query(
				q("SELECT id, kind, name, payload, message_id FROM #.inbox WHERE run_id = ? ORDER BY id"),
				(rs, n) -> new InboxItem(rs.getLong(1), InboxKind.of(rs.getString(2)), rs.getString(3), rs.getBytes(4),
						rs.getString(5)),
				runId);
	}

}
