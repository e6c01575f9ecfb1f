package dev.durable.workflow.internal.taskqueue;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongSupplier;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementSetter;

import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.internal.queue.AdmissionPlan;
import dev.durable.workflow.internal.queue.FairOrder;
import dev.durable.workflow.internal.queue.QueueSource;
import dev.durable.workflow.internal.store.Sql;

/**
 * The due attempts of a task queue limited by the queue of the same name, as a
 * {@link QueueSource}: candidates in claim order (priority descending, due time), and an
 * admission that claims them for this node exactly as an unlimited claim does. The
 * queue's row is locked by the admission round, so rounds of several nodes never admit
 * past the queue's limits; the attempts hold their slots while STARTED or ASYNC
 * ({@code ActivityOccupancy}).
 */
final class ActivityQueueSource implements QueueSource<ActivityQueueSource.Key, ClaimedActivity> {

	/**
	 * An activity's row.
	 *
	 * @param runId the run
	 * @param seq the activity's sequence number
	 */
	record Key(UUID runId, long seq) {
	}

	private static final String CANDIDATES = "SELECT run_id, seq, priority, next_attempt_at, partition_key"
			+ " FROM #.activity WHERE namespace = ? AND task_queue = ? AND state = 'SCHEDULED' AND next_attempt_at <= ?"
			+ " AND (activity_type = ANY(?) OR '*' = ANY(?)) AND (partition_key IS NULL OR NOT (partition_key = ANY(?)))"
			+ " AND " + ActivityClaims.RUN_NOT_PAUSED + " AND " + ActivityClaims.ACTIVITY_NOT_PAUSED;

	private static final String AFTER = " AND (priority < ? OR (priority = ? AND (next_attempt_at, run_id, seq) > (?, ?, ?)))";

	private static final String ORDER = " ORDER BY priority DESC, next_attempt_at, run_id, seq LIMIT ?";

	/** A key's order in a fair queue, after the priority. */
	private static final List<String> FAIR_ORDER = List.of("next_attempt_at", "run_id", "seq");

	/** Where a page ends: the last row read, in claim order. */
	private record Cursor(int priority, double turn, Timestamp dueAt, UUID runId, long seq) {
	}

	private final JdbcTemplate jdbc;

	private final String schema;

	private final ActivityClaims claims;

	private final Collection<String> types;

	private final UUID node;

	private final LongSupplier incarnation;

	ActivityQueueSource(JdbcTemplate jdbc, String schema, ActivityClaims claims, Collection<String> types, UUID node,
			LongSupplier incarnation) {
		this.jdbc = jdbc;
		this.schema = schema;
		this.claims = claims;
		this.types = List.copyOf(types);
		this.node = node;
		this.incarnation = incarnation;
	}

	@Override
	public Page<Key> candidates(String namespace, QueueDefinition queue, Instant now, Set<String> fullPartitions,
			Object from, int limit) {
		Cursor after = (Cursor) from;
		List<AdmissionPlan.Candidate<Key>> candidates = new ArrayList<>();
		Cursor[] last = { null };
		String sql = queue.fair() ? FairOrder.query(CANDIDATES, FAIR_ORDER, after != null)
				: CANDIDATES + ((after != null) ? AFTER : "") + ORDER;
		Object[] cursor = null;
		if (after != null) {
			cursor = queue.fair() ? new Object[] { after.turn(), after.dueAt(), after.runId(), after.seq() }
					: new Object[] { after.dueAt(), after.runId(), after.seq() };
		}
		PreparedStatementSetter parameters = QueueSource.page(namespace, queue.name(), now,
				List.of(this.types, this.types, fullPartitions), QueueSource.weights(queue),
				(after != null) ? after.priority() : null, cursor, limit);
		this.jdbc.query(Sql.q(this.schema, sql), parameters, (rs) -> {
			Key key = new Key(Sql.uuid(rs, "run_id"), rs.getLong("seq"));
			last[0] = new Cursor(rs.getInt("priority"), queue.fair() ? rs.getDouble("turn") : 0,
					rs.getTimestamp("next_attempt_at"), key.runId(), key.seq());
			candidates.add(new AdmissionPlan.Candidate<>(key, rs.getString("partition_key")));
		});
		return new Page<>(candidates, (candidates.size() == limit) ? last[0] : null);
	}

	@Override
	public List<ClaimedActivity> admit(String namespace, String queue, UUID node, Instant now,
			List<AdmissionPlan.Candidate<Key>> admitted) {
		return this.claims.claimRows(admitted.stream().map(AdmissionPlan.Candidate::key).toList(), this.node,
				this.incarnation.getAsLong(), now);
	}

}
