package dev.durable.workflow.internal.queue;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementSetter;

import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.failure.TimeoutType;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.store.RunOwnership;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.Sql;

/**
 * Workflow runs started into a queue ({@code queued_run}), as a {@link QueueSource} for
 * the rounds of one node: the candidates are the waiting runs of the types and task
 * queues the node serves, due by the engine clock (a delayed start waits from its start
 * time on); an admitted run is taken by the node (owner, a new epoch, due now), like a
 * delayed start that came due. A run closed while it waited leaves the queue when a round
 * meets it. What admitted runs hold is {@link WorkflowOccupancy}'s.
 */
public final class WorkflowQueueSource implements QueueSource<UUID, WorkflowQueueSource.Admitted> {

	/**
	 * A run admitted and taken by this node.
	 *
	 * @param runId the run
	 * @param epoch its new epoch, the one this node owns it at
	 */
	public record Admitted(UUID runId, long epoch) {
	}

	/**
	 * The types a node admits (one parameter: its served types): those it serves by name,
	 * and, with a dynamic workflow ({@code '*'}), those no live node of the run's
	 * namespace serves by name, as {@link RunOwnership#claim} takes them; the liveness
	 * bound is inlined as a number.
	 */
	private static String servedType(long deadAfterMillis) {
		return "(q.workflow_type = ANY(?::text[]) OR ('*' = ANY(?::text[]) AND NOT EXISTS (SELECT 1 FROM #.node d"
				+ " WHERE d.namespace = q.namespace AND q.workflow_type = ANY(d.served_types) AND d.last_heartbeat > now() - make_interval(secs => "
				+ (deadAfterMillis / 1000.0) + "))))";
	}

	private static final String CANDIDATES = "SELECT q.run_id, q.priority, q.enqueued_at, q.partition_key,"
			+ " coalesce(" + Sql.open("r") + ", false) AS open FROM #.queued_run q"
			+ " LEFT JOIN #.workflow_run r ON r.run_id = q.run_id WHERE q.namespace = ? AND q.queue = ?"
			+ " AND q.state = 'WAITING' AND q.enqueued_at <= ? AND %s AND q.task_queue = ANY(?)"
			+ " AND (q.partition_key IS NULL OR NOT (q.partition_key = ANY(?)))";

	private static final String AFTER = " AND (q.priority < ? OR (q.priority = ? AND (q.enqueued_at, q.run_id) > (?, ?)))";

	private static final String ORDER = " ORDER BY q.priority DESC, q.enqueued_at, q.run_id LIMIT ?";

	/** A key's order in a fair queue, after the priority. */
	private static final List<String> FAIR_ORDER = List.of("enqueued_at", "run_id");

	private static final String DROP = "DELETE FROM #.queued_run WHERE run_id = ANY(?)";

	private static final String MARK = "UPDATE #.queued_run SET state = 'ADMITTED', admitted_by = ?, admitted_at = ?"
			+ " WHERE run_id = ANY(?) AND state = 'WAITING'";

	/**
	 * Like a due delayed start: owned here, runnable now; only a run still waiting in its
	 * queue. A run of another build than this node's is admitted unowned, with input, so
	 * that a node of its build claims it.
	 */
	private static final String HERE = "(build_id IS NULL OR build_id IS NOT DISTINCT FROM ?)";

	private static final String TAKE = "UPDATE #.workflow_run SET owner_node = CASE WHEN " + HERE
			+ " THEN ?::uuid END, pending_input = pending_input OR NOT " + HERE
			+ ", epoch = epoch + 1, next_wake_at = ?, task_attempt = 0" + " WHERE run_id = ANY(?) AND " + Sql.open(null)
			+ " AND task_attempt = " + RunOwnership.WAITING_IN_QUEUE + " RETURNING run_id, epoch, owner_node";

	/**
	 * The waiting runs past the admission timeout, longest waiting first (a closed run's
	 * row goes too).
	 */
	private static final String EXPIRED = "SELECT q.run_id, q.enqueued_at FROM #.queued_run q WHERE q.namespace = ?"
			+ " AND q.queue = ? AND q.state = 'WAITING' AND q.enqueued_at <= ? ORDER BY q.enqueued_at LIMIT "
			+ WorkflowQueueSource.EXPIRE_BATCH;

	/** Runs closed by the admission timeout in one round at most. */
	private static final int EXPIRE_BATCH = 100;

	/**
	 * Tells, after the commit, of a waiting run closed by the queue's admission timeout.
	 */
	@FunctionalInterface
	public interface TimedOut {

		/**
		 * @param row the run as it was before it closed
		 * @param woken the runs its close gave an inbox item (its parent)
		 */
		void closed(RunRow row, List<UUID> woken);

	}

	private final @Nullable String buildId;

	private final RunRepository runs;

	private final TimedOut timedOut;

	private final JdbcTemplate jdbc;

	private final String schema;

	private final Set<String> types;

	private final Set<String> taskQueues;

	private final String servedType;

	/**
	 * @param types the workflow types the node serves ({@code '*'} with a dynamic
	 * workflow)
	 * @param taskQueues the task queues it serves
	 * @param deadAfter how long after its last heartbeat a node counts as gone
	 */
	public WorkflowQueueSource(JdbcTemplate jdbc, String schema, Set<String> types, Set<String> taskQueues,
			Duration deadAfter, @Nullable String buildId, TimedOut timedOut) {
		this.buildId = buildId;
		this.runs = new RunRepository(jdbc, schema);
		this.timedOut = timedOut;
		this.jdbc = jdbc;
		this.schema = schema;
		this.types = Set.copyOf(types);
		this.taskQueues = Set.copyOf(taskQueues);
		this.servedType = servedType(deadAfter.toMillis());
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * Where a page ends: the last row read, in the order (priority descending, arrival,
	 * run id).
	 */
	private record Cursor(int priority, double turn, Timestamp enqueuedAt, UUID runId) {
	}

	@Override
	public Page<UUID> candidates(String namespace, QueueDefinition queue, Instant now, Set<String> fullPartitions,
			@Nullable Object from, int limit) {
		Cursor after = (Cursor) from;
		List<AdmissionPlan.Candidate<UUID>> candidates = new ArrayList<>();
		List<UUID> closed = new ArrayList<>();
		Cursor[] last = { null };
		int[] rows = { 0 };
		String base = CANDIDATES.formatted(this.servedType);
		String sql = queue.fair() ? FairOrder.query(base, FAIR_ORDER, after != null)
				: base + ((after != null) ? AFTER : "") + ORDER;
		Object[] cursor = null;
		if (after != null) {
			cursor = queue.fair() ? new Object[] { after.turn(), after.enqueuedAt(), after.runId() }
					: new Object[] { after.enqueuedAt(), after.runId() };
		}
		PreparedStatementSetter parameters = QueueSource.page(namespace, queue.name(), now,
				List.of(this.types, this.types, this.taskQueues, fullPartitions), QueueSource.weights(queue),
				(after != null) ? after.priority() : null, cursor, limit);
		this.jdbc.query(q(sql), parameters, (rs) -> {
			UUID runId = Sql.uuid(rs, "run_id");
			rows[0]++;
			last[0] = new Cursor(rs.getInt("priority"), queue.fair() ? rs.getDouble("turn") : 0,
					rs.getTimestamp("enqueued_at"), runId);
			if (rs.getBoolean("open")) {
				candidates.add(new AdmissionPlan.Candidate<>(runId, rs.getString("partition_key")));
			}
			else {
				closed.add(runId); // terminated while waiting, or deleted: it leaves the
									// queue
			}
		});
		if (!closed.isEmpty()) {
			this.jdbc.update(q(DROP), (PreparedStatementSetter) (ps) -> ps.setArray(1, uuids(ps, closed)));
		}
		return new Page<>(candidates, (rows[0] == limit) ? last[0] : null);
	}

	/**
	 * Closes the runs that waited since {@code cutoff} or earlier as timed out
	 * ({@code SCHEDULE_TO_START}, recorded in their history as the close of a run without
	 * its code, as a run timeout is), whatever their type: they must not run late.
	 */
	@Override
	public Expired expire(String namespace, QueueDefinition queue, Instant cutoff, Instant now) {
		List<UUID> ids = this.jdbc.query(q(EXPIRED), (rs, n) -> Sql.uuid(rs, "run_id"), namespace, queue.name(),
				Sql.ts(cutoff));
		if (ids.isEmpty()) {
			return Expired.NONE;
		}
		List<Runnable> afterCommit = new ArrayList<>();
		FailureInfo failure = FailureInfo.timeout(TimeoutType.SCHEDULE_TO_START, "waited in queue '" + queue.name()
				+ "' longer than its admission timeout of " + queue.admissionTimeout(), null);
		for (UUID runId : ids) {
			Optional<RunRow> row = this.runs.find(runId).filter(RunRow::isOpen);
			List<UUID> woken = row.isPresent() ? this.runs.timeOut(runId, failure, now) : null;
			if (woken != null) {
				afterCommit.add(() -> this.timedOut.closed(row.get(), woken));
			}
		}
		this.jdbc.update(q(DROP), (PreparedStatementSetter) (ps) -> ps.setArray(1, uuids(ps, ids)));
		return new Expired(afterCommit, ids.size() == EXPIRE_BATCH);
	}

	@Override
	public List<Admitted> admit(String namespace, String queue, UUID node, Instant now,
			List<AdmissionPlan.Candidate<UUID>> admitted) {
		List<UUID> ids = admitted.stream().map(AdmissionPlan.Candidate::key).toList();
		this.jdbc.update(q(MARK), (PreparedStatementSetter) (ps) -> {
			ps.setObject(1, node);
			ps.setTimestamp(2, Sql.ts(now));
			ps.setArray(3, uuids(ps, ids));
		});
		return this.jdbc.query(q(TAKE), (PreparedStatementSetter) (ps) -> {
			ps.setString(1, this.buildId);
			ps.setObject(2, node);
			ps.setString(3, this.buildId);
			ps.setTimestamp(4, Sql.ts(now));
			ps.setArray(5, uuids(ps, ids));
		}, (rs, n) -> node.equals(Sql.uuid(rs, "owner_node"))
				? new Admitted(Sql.uuid(rs, "run_id"), rs.getLong("epoch")) : null)
			.stream()
			.filter(java.util.Objects::nonNull)
			.toList();
	}

	private static java.sql.Array uuids(java.sql.PreparedStatement ps, List<UUID> ids) throws java.sql.SQLException {
		return ps.getConnection().createArrayOf("uuid", ids.toArray());
	}

	/**
	 * Whether a round could admit anything: an open, due waiting run of the served types
	 * (read without locks). The row of a run closed while it waited is left to the next
	 * round that reads it as a candidate, or to the retention.
	 */
	public boolean hasWaiting(String namespace, String queue, Instant now) {
		return Boolean.TRUE.equals(this.jdbc.query(q("SELECT EXISTS (SELECT 1 FROM #.queued_run q JOIN #.workflow_run r"
				+ " ON r.run_id = q.run_id AND " + Sql.open("r") + " WHERE q.namespace = ?"
				+ " AND q.queue = ? AND q.state = 'WAITING' AND q.enqueued_at <= ? AND " + this.servedType
				+ " AND q.task_queue = ANY(?))"), (PreparedStatementSetter) (ps) -> {
					ps.setString(1, namespace);
					ps.setString(2, queue);
					ps.setTimestamp(3, Sql.ts(now));
					ps.setArray(4, ps.getConnection().createArrayOf("text", this.types.toArray()));
					ps.setArray(5, ps.getConnection().createArrayOf("text", this.types.toArray()));
					ps.setArray(6, ps.getConnection().createArrayOf("text", this.taskQueues.toArray()));
				}, (rs) -> rs.next() && rs.getBoolean(1)));
	}

	/** Of the runs given, those still admitted, open and owned by the node. */
	public Set<UUID> heldBy(UUID node, java.util.Collection<UUID> runIds) {
		List<UUID> ids = List.copyOf(runIds);
		return new java.util.HashSet<>(this.jdbc.query(q("SELECT q.run_id FROM #.queued_run q JOIN #.workflow_run r"
				+ " ON r.run_id = q.run_id WHERE q.run_id = ANY(?) AND q.state = 'ADMITTED' AND r.owner_node = ?"
				+ " AND " + Sql.open("r")), (PreparedStatementSetter) (ps) -> {
					ps.setArray(1, uuids(ps, ids));
					ps.setObject(2, node);
				}, (rs, n) -> Sql.uuid(rs, "run_id")));
	}

}
