package dev.durable.workflow.internal.store;

import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.history.EventCodec;
import dev.durable.workflow.internal.history.TaskRecord;

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
				},
				runId);
	}

	public List<InboxItem> inbox(UUID runId) {
		return this.jdbc.query(
				q("SELECT id, kind, name, payload, message_id FROM #.inbox WHERE run_id = ? ORDER BY id"),
				(rs, n) -> new InboxItem(rs.getLong(1), InboxKind.of(rs.getString(2)), rs.getString(3), rs.getBytes(4),
						rs.getString(5)),
				runId);
	}

}
