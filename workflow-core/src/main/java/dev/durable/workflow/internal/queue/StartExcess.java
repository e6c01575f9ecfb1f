package dev.durable.workflow.internal.queue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.client.StartCanceledException;
import dev.durable.workflow.client.StartDroppedException;
import dev.durable.workflow.engine.ExcessStrategy;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.internal.store.InboxDelivery;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.Sql;

/**
 * What a workflow start into a queue does when it is beyond the queue's partition
 * concurrency or its rate window ({@link ExcessStrategy}), decided in the start's
 * transaction, before the run is written. Concurrent starts of one partition key (or, for
 * the rate, of one queue) are serialized by a transaction-scoped advisory lock, so two of
 * them never both see room for one; the admission rounds do not take these locks (a round
 * only turns waiting runs into running ones, which changes no count here).
 */
public final class StartExcess {

	/**
	 * The open runs of a partition key in the queue not yet asked to cancel by a newer
	 * start, the admitted ones first, oldest first.
	 */
	private static final String OF_KEY = "SELECT q.run_id FROM #.queued_run q JOIN #.workflow_run r"
			+ " ON r.run_id = q.run_id AND " + Sql.open("r") + " WHERE q.namespace = ? AND q.queue = ?"
			+ " AND q.partition_key = ? AND q.cancel_requested_at IS NULL"
			+ " ORDER BY (q.state = 'ADMITTED') DESC, q.admitted_at, q.enqueued_at, q.run_id";

	/**
	 * The starts admitted in the rate window and the runs waiting (due) to be admitted.
	 */
	private static final String IN_WINDOW = "SELECT (SELECT count(*) FROM #.queue_start WHERE namespace = ?"
			+ " AND queue = ? AND started_at > ?) + (SELECT count(*) FROM #.queued_run q JOIN #.workflow_run r"
			+ " ON r.run_id = q.run_id AND " + Sql.open("r") + " WHERE q.namespace = ? AND q.queue = ?"
			+ " AND q.state = 'WAITING' AND q.enqueued_at <= ?)";

	private static final String MARK_CANCELED = "UPDATE #.queued_run SET cancel_requested_at = ? WHERE run_id = ?";

	private final JdbcTemplate jdbc;

	private final String schema;

	StartExcess(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * A run a newer start of its partition key asked to cancel
	 * ({@link ExcessStrategy#CANCEL_OLDEST_RUNNING}): to wake after the commit.
	 *
	 * @param runId the run
	 * @param owner the node that holds it, or {@code null}
	 */
	public record CancelRequested(UUID runId, @Nullable UUID owner) {
	}

	/**
	 * Decides a start into the queue, inside its transaction, before the run is written.
	 * @param due whether the start is due now (a delayed start is judged by the partition
	 * only: the rate window of now is not its window)
	 * @return the runs asked to cancel to make room (empty unless
	 * {@link ExcessStrategy#CANCEL_OLDEST_RUNNING})
	 * @throws StartDroppedException when the strategy drops the start
	 * @throws StartCanceledException when the key's runs keep their slots and the start
	 * gives way ({@link ExcessStrategy#CANCEL_NEWEST})
	 */
	public List<CancelRequested> decide(String namespace, QueueDefinition queue, String workflowId,
			@Nullable String partitionKey, boolean due, Instant now, RunRepository runs) {
		if (queue.rateExcess() == ExcessStrategy.DROP && due) {
			lock(namespace, queue.name(), null);
			Long waiting = this.jdbc.queryForObject(q(IN_WINDOW), Long.class, namespace, queue.name(),
					Sql.ts(now.minus(queue.ratePeriod())), namespace, queue.name(), Sql.ts(now));
			if (waiting != null && waiting >= queue.rateLimit()) {
				throw new StartDroppedException(
						"Start of workflow id '" + workflowId + "' dropped: queue '" + queue.name()
								+ "' has admitted or holds " + waiting + " starts in its rate window of "
								+ queue.rateLimit() + " per " + queue.ratePeriod(),
						workflowId, queue.name(), partitionKey, StartDroppedException.Limit.RATE_LIMIT);
			}
		}
		if (partitionKey == null || queue.partitionExcess() == ExcessStrategy.QUEUE) {
			return List.of();
		}
		lock(namespace, queue.name(), partitionKey);
		List<UUID> open = this.jdbc.query(q(OF_KEY), (rs, n) -> Sql.uuid(rs, "run_id"), namespace, queue.name(),
				partitionKey);
		int limit = queue.partitionConcurrency();
		if (open.size() < limit) {
			return List.of();
		}
		String beyond = "partition key '" + partitionKey + "' of queue '" + queue.name() + "' has " + open.size()
				+ " open runs, its concurrency is " + limit;
		switch (queue.partitionExcess()) {
			case DROP -> throw new StartDroppedException("Start of workflow id '" + workflowId + "' dropped: " + beyond,
					workflowId, queue.name(), partitionKey, StartDroppedException.Limit.PARTITION_CONCURRENCY);
			case CANCEL_NEWEST -> throw new StartCanceledException(
					"Start of workflow id '" + workflowId + "' canceled: " + beyond + " (CANCEL_NEWEST)", workflowId,
					queue.name(), partitionKey);
			default -> {
				// the oldest give way, so that the rest and this start fit the limit
				byte[] reason = ("canceled by a newer start of partition key '" + partitionKey + "' (workflow id '"
						+ workflowId + "') in queue '" + queue.name() + "'")
					.getBytes(StandardCharsets.UTF_8);
				List<CancelRequested> canceled = new ArrayList<>();
				for (UUID runId : open.subList(0, open.size() - limit + 1)) {
					if (runs.sendToInbox(runId, InboxKind.CANCEL, null,
							reason) instanceof InboxDelivery.Delivered sent) {
						canceled.add(new CancelRequested(runId, sent.owner()));
					}
					this.jdbc.update(q(MARK_CANCELED), Sql.ts(now), runId);
				}
				return canceled;
			}
		}
	}

	/**
	 * Holds, until the transaction ends, the lock of a partition key of the queue (or of
	 * the queue's rate window when {@code partitionKey} is null).
	 */
	private void lock(String namespace, String queue, @Nullable String partitionKey) {
		String name = "durable.queue-excess:" + this.schema + ":" + namespace + ":" + queue
				+ ((partitionKey != null) ? ":key:" + partitionKey : ":rate");
		this.jdbc.query("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (rs) -> {
		}, name);
	}

}
