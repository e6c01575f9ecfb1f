package dev.durable.workflow.internal.store;

import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * Deduplication records per workflow id: signal idempotency keys, and update ids with
 * their stage and outcome. Kept until retention, across the runs of the workflow id.
 */
public final class DedupRepository {

	/**
	 * An update's record.
	 *
	 * @param runId the run it was sent to
	 * @param stage ADMITTED, ACCEPTED, COMPLETED or REJECTED
	 * @param result the encoded result
	 * @param failure the rejection or handler failure
	 */
	public record UpdateRecord(UUID runId, String stage, byte[] result, FailureInfo failure) {
	}

	private final JdbcTemplate jdbc;

	private final String schema;

	public DedupRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/** Records a signal's idempotency key. @return false when the key was seen before */
	public boolean recordSignalKey(String namespace, String workflowId, String key, UUID runId) {
		return this.jdbc.update(
				q("INSERT INTO #.dedup (namespace, workflow_id, kind, dedup_key, run_id, stage)"
						+ " VALUES (?, ?, 'SIGNAL', ?, ?, 'COMPLETED') ON CONFLICT DO NOTHING"),
				namespace, workflowId, key, runId) == 1;
	}

	/** Admits a new update id. @return false when the id was used before */
	public boolean admitUpdate(String namespace, String workflowId, String updateId, UUID runId) {
		return this.jdbc.update(
				q("INSERT INTO #.dedup (namespace, workflow_id, kind, dedup_key, run_id, stage)"
						+ " VALUES (?, ?, 'UPDATE', ?, ?, 'ADMITTED') ON CONFLICT DO NOTHING"),
				namespace, workflowId, updateId, runId) == 1;
	}

	public Optional<UpdateRecord> findUpdate(String namespace, String workflowId, String updateId) {
		return this.jdbc
			.query(q("SELECT run_id, stage, outcome, failure FROM #.dedup WHERE namespace = ?"
					+ " AND workflow_id = ? AND kind = 'UPDATE' AND dedup_key = ?"),
					(rs, n) -> new UpdateRecord(Sql.uuid(rs, "run_id"), rs.getString("stage"), rs.getBytes("outcome"),
							InternalJson.read(rs.getBytes("failure"), FailureInfo.class)),
					namespace, workflowId, updateId)
			.stream()
			.findFirst();
	}

}
