package dev.durable.workflow.internal.store;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A signal to the latest run of a workflow id, found and sent by one statement. The
 * caller knows the workflow type (a handle from a start), so the payload is encoded
 * before the run is read, and the statement sends only to an open run of that type: the
 * send of {@link RunRepository#sendToInbox} ({@link InboxSendSql}) with the lookup of
 * {@link RunRepository#findLatest} folded in, one round trip instead of two.
 */
public final class LatestRunSignal {

	/**
	 * Where a signal went: the run and its owner node ({@code null}: no node holds it).
	 */
	public record Sent(UUID runId, UUID owner) {
	}

	private final JdbcTemplate jdbc;

	private final String sql;

	public LatestRunSignal(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.sql = InboxSendSql.statement(schema,
				"w.run_id = (SELECT run_id FROM #.workflow_run" + " WHERE namespace = ? AND workflow_id = ?"
						+ InboxSendSql.LATEST_FIRST + " LIMIT 1)" + " AND w.workflow_type = ?");
	}

	/**
	 * Sends a signal to the latest run of the workflow id if that run is open and of the
	 * type.
	 * @return where it went; empty when nothing was written (no run, the latest closed,
	 * or of another type): the caller then reads the latest run to tell why, or to send
	 * to it
	 */
	public Optional<Sent> send(String namespace, String workflowId, String workflowType, String name, byte[] payload) {
		List<Sent> sent = this.jdbc.query(this.sql,
				(rs, n) -> new Sent(Sql.uuid(rs, "run_id"), Sql.uuid(rs, "owner_node")), namespace, workflowId,
				workflowType, InboxKind.SIGNAL.stored(), name, payload, null);
		return sent.stream().findFirst();
	}

}
