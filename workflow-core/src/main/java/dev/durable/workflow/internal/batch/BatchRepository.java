package dev.durable.workflow.internal.batch;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.client.batch.BatchState;
import dev.durable.workflow.client.batch.BatchStatus;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * The {@code batch} rows: a batch's request and its progress. A page's progress is
 * written with a compare-and-set on the number of pages done, so two attempts at the same
 * page (an activity retried after a crash, a node that lost the run) count it once.
 */
public final class BatchRepository {

	private final JdbcTemplate jdbc;

	private final String table;

	public BatchRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.table = schema + ".batch";
	}

	/** Inserts a new batch; {@code false} when one with this id exists. */
	boolean insert(String namespace, String batchId, StoredRequest request, Instant now) {
		return this.jdbc.update(
				"INSERT INTO " + this.table + " (namespace, batch_id, operation, request, fingerprint,"
						+ " state, created_at) VALUES (?, ?, ?, ?, ?, 'RUNNING', ?) ON CONFLICT DO NOTHING",
				namespace, batchId, request.operation().name(), request.write(), request.fingerprint(),
				Timestamp.from(now)) == 1;
	}

	Optional<BatchRow> find(String namespace, String batchId) {
		return this.jdbc
			.query("SELECT * FROM " + this.table + " WHERE namespace = ? AND batch_id = ?", this::row, namespace,
					batchId)
			.stream()
			.findFirst();
	}

	/** The latest batches, newest first. */
	List<BatchRow> latest(String namespace, int limit) {
		return this.jdbc.query(
				"SELECT * FROM " + this.table + " WHERE namespace = ? ORDER BY created_at DESC, batch_id DESC LIMIT ?",
				this::row, namespace, limit);
	}

	/**
	 * Records one page done: its counts, the failures kept, and where the next page
	 * starts (none: the batch completes unless it was closed meanwhile).
	 * @param pagesBefore the pages done when the page was read: the compare-and-set
	 * @return whether this attempt recorded the page (false: another one did, or the row
	 * is gone)
	 */
	boolean recordPage(String namespace, String batchId, long pagesBefore, @Nullable String nextPageToken,
			PageCounts counts, List<BatchStatus.Failure> recentFailures, Instant now) {
		boolean last = nextPageToken == null;
		return this.jdbc.update("UPDATE " + this.table + " SET pages = pages + 1, page_token = ?, total = total + ?,"
				+ " processed = processed + ?, succeeded = succeeded + ?, skipped = skipped + ?, failed = failed + ?,"
				+ " recent_failures = ?,"
				+ " state = CASE WHEN ? AND state = 'RUNNING' THEN 'COMPLETED' ELSE state END,"
				+ " closed_at = CASE WHEN ? AND state = 'RUNNING' THEN ? ELSE closed_at END"
				+ " WHERE namespace = ? AND batch_id = ? AND pages = ?", nextPageToken, counts.total(),
				counts.processed(), counts.succeeded(), counts.skipped(), counts.failed(),
				InternalJson.write(recentFailures.toArray(BatchStatus.Failure[]::new)), last, last, Timestamp.from(now),
				namespace, batchId, pagesBefore) == 1;
	}

	/** Closes a running batch; {@code false} when it was closed already (or is gone). */
	boolean close(String namespace, String batchId, BatchState state, Instant now) {
		return this.jdbc.update(
				"UPDATE " + this.table + " SET state = ?, closed_at = ? WHERE namespace = ?"
						+ " AND batch_id = ? AND state = 'RUNNING'",
				state.name(), Timestamp.from(now), namespace, batchId) == 1;
	}

	private BatchRow row(ResultSet rs, int n) throws SQLException {
		String batchId = rs.getString("batch_id");
		StoredRequest request = StoredRequest.read(rs.getBytes("request"));
		byte[] failures = rs.getBytes("recent_failures");
		List<BatchStatus.Failure> recent = (failures != null)
				? Arrays.asList(InternalJson.read(failures, BatchStatus.Failure[].class)) : List.of();
		Timestamp closed = rs.getTimestamp("closed_at");
		BatchStatus status = new BatchStatus(batchId, request.toRequest(batchId),
				BatchState.valueOf(rs.getString("state")), rs.getLong("total"), rs.getLong("processed"),
				rs.getLong("succeeded"), rs.getLong("skipped"), rs.getLong("failed"), recent,
				rs.getTimestamp("created_at").toInstant(), (closed != null) ? closed.toInstant() : null);
		return new BatchRow(status, request, rs.getString("fingerprint"), rs.getString("page_token"),
				rs.getLong("pages"));
	}

	/**
	 * A batch row.
	 *
	 * @param status the batch as the API shows it
	 * @param request the stored request
	 * @param fingerprint the request's hash
	 * @param pageToken where the next page starts, or {@code null} for the first
	 * @param pages the pages done
	 */
	record BatchRow(BatchStatus status, StoredRequest request, String fingerprint, @Nullable String pageToken,
			long pages) {
	}

	/**
	 * The counts of one page.
	 *
	 * @param total runs taken
	 * @param processed runs tried
	 * @param succeeded applied
	 * @param skipped not applicable
	 * @param failed failed
	 */
	record PageCounts(long total, long processed, long succeeded, long skipped, long failed) {
	}

}
