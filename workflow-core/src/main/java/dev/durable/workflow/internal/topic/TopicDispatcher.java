package dev.durable.workflow.internal.topic;

import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventCodec;
import dev.durable.workflow.internal.node.NodeService;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.Sql;
import dev.durable.workflow.internal.store.TopicMatch;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.payload.PayloadConverter;

/**
 * A worker node's dispatch of published events, woken by the notification a publish sends
 * on commit and at least once per poll interval (a node that died between a publish's
 * commit and its dispatch, a notification lost while a listener reconnected). Any node
 * may dispatch any event: the events are claimed with {@code SKIP LOCKED}.
 * <p>
 * It works in two steps, each its own transaction. <b>Match</b>, one topic at a time: the
 * topic's row is updated (its positions given to the claimed events, in publish order),
 * which excludes the commits that register waits on the topic until this commits; each
 * event removes the waits it matches and stages a delivery per wait. No run row is
 * touched here, so this step never waits for a workflow task's commit. <b>Deliver</b>:
 * staged deliveries go to the inboxes of the runs whose rows are free now (pending input
 * set, as for a signal); a run whose row a commit holds is delivered in the next round; a
 * closed run's delivery is dropped. The owners are woken after the commit.
 */
public final class TopicDispatcher implements NodeService {

	private static final Logger log = LoggerFactory.getLogger(TopicDispatcher.class);

	private static final int EVENTS_PER_ROUND = 100;

	private static final int DELIVERIES_PER_ROUND = 500;

	private final JdbcTemplate jdbc;

	private final TransactionTemplate tx;

	private final PayloadConverter converter;

	private final BiConsumer<UUID, UUID> wake;

	private final Duration sweepInterval;

	private final Semaphore asked = new Semaphore(0);

	private final String topicsWithEvents;

	private final String claimEvents;

	private final String ensureTopic;

	private final String advanceTopic;

	private final String placeEvent;

	private final String matchWaits;

	private final String stagedDeliveries;

	private final String existingRuns;

	private final String lockRuns;

	private final String markInput;

	private final String insertInbox;

	private final String dropDeliveries;

	private final Clock clock;

	/**
	 * What runs after each dispatch: the steps of the triggers (they act on
	 * event_action).
	 */
	private final List<Runnable> afterDispatch;

	private final String channel;

	private final String stageActions;

	private volatile boolean running;

	private Thread thread;

	/**
	 * @param wake wakes a run (run id, owner node or {@code null})
	 * @param sweepInterval how often it looks without being asked
	 */
	public TopicDispatcher(JdbcTemplate jdbc, TransactionTemplate tx, String schema, PayloadConverter converter,
			BiConsumer<UUID, UUID> wake, Duration sweepInterval, Clock clock, List<Runnable> afterDispatch) {
		this.clock = clock;
		this.afterDispatch = afterDispatch;
		this.channel = TopicMatch.channel(schema);
		this.stageActions = Sql.q(schema, "INSERT INTO #.event_action (namespace, topic, event_id, workflow_type, kind,"
				+ " position, created_at) SELECT namespace, topic, ?, workflow_type, kind, ?, ? FROM #.event_trigger"
				+ " WHERE namespace = ? AND topic = ? ON CONFLICT DO NOTHING");
		this.jdbc = jdbc;
		this.tx = tx;
		this.converter = converter;
		this.wake = wake;
		this.sweepInterval = sweepInterval;
		this.claimEvents = Sql.q(schema,
				"SELECT namespace, topic, event_id, payload::text, published_at"
						+ " FROM #.topic_event WHERE position IS NULL AND namespace = ? AND topic = ?"
						+ " ORDER BY published_at, event_id LIMIT " + EVENTS_PER_ROUND + " FOR UPDATE SKIP LOCKED");
		this.ensureTopic = Sql.q(schema,
				"INSERT INTO #.event_topic (namespace, topic) VALUES (?, ?) ON CONFLICT DO NOTHING");
		this.advanceTopic = Sql.q(schema, "UPDATE #.event_topic SET last_position = last_position + ?,"
				+ " last_event_at = now() WHERE namespace = ? AND topic = ? RETURNING last_position");
		this.placeEvent = Sql.q(schema, "UPDATE #.topic_event SET position = ?, dispatched_at = now()"
				+ " WHERE namespace = ? AND topic = ? AND event_id = ?");
		// the waits of each shape the topic has, found by equality of their match with
		// the
		// event's payload projected on the shape's fields
		this.matchWaits = Sql.q(schema,
				"WITH m AS (DELETE FROM #.event_wait w USING #.event_wait_shape s"
						+ " WHERE s.namespace = ? AND s.topic = ? AND w.namespace = s.namespace AND w.topic = s.topic"
						+ " AND w.fields = s.fields AND w.match = " + TopicMatch.projection("?::jsonb", "s.fields")
						+ " AND w.after_position < ? RETURNING w.run_id, w.wait_seq)"
						+ " INSERT INTO #.event_delivery (run_id, wait_seq, namespace, topic, event_id, position)"
						+ " SELECT run_id, wait_seq, ?, ?, ?, ? FROM m ON CONFLICT DO NOTHING");
		this.stagedDeliveries = Sql.q(schema,
				"SELECT d.run_id, d.wait_seq, d.topic, d.event_id, d.position,"
						+ " e.payload::text, e.published_at FROM #.event_delivery d JOIN #.topic_event e"
						+ " ON e.namespace = d.namespace AND e.topic = d.topic AND e.event_id = d.event_id"
						+ " ORDER BY d.run_id, d.wait_seq LIMIT " + DELIVERIES_PER_ROUND);
		this.existingRuns = Sql.q(schema, "SELECT run_id FROM #.workflow_run WHERE run_id = ANY(?)");
		this.lockRuns = Sql.q(schema, "SELECT run_id, owner_node, " + Sql.open(null) + " AS open"
				+ " FROM #.workflow_run WHERE run_id = ANY(?) FOR UPDATE SKIP LOCKED");
		this.markInput = Sql.q(schema,
				"UPDATE #.workflow_run SET pending_input = true, inbox_seq = inbox_seq + 1 WHERE run_id = ?");
		this.insertInbox = Sql.q(schema, "INSERT INTO #.inbox (run_id, kind, name, payload) VALUES (?, ?, ?, ?)");
		this.dropDeliveries = Sql.q(schema,
				"DELETE FROM #.event_delivery d USING (SELECT unnest(?::uuid[]) AS run_id,"
						+ " unnest(?::bigint[]) AS wait_seq) t WHERE d.run_id = t.run_id AND d.wait_seq = t.wait_seq"
						+ " RETURNING d.run_id, d.wait_seq");
		this.topicsWithEvents = Sql.q(schema, "SELECT DISTINCT namespace, topic FROM (SELECT namespace, topic"
				+ " FROM #.topic_event WHERE position IS NULL ORDER BY published_at LIMIT 1000) t");
	}

	/**
	 * How often a node looks for events without being asked, for a poll interval: five of
	 * them, at least a second. The notification of a publish wakes the dispatch at once;
	 * the sweep is only for what a notification missed (a node that died between a
	 * publish's commit and its dispatch, a listener reconnecting), so it need not cost
	 * every poll two statements.
	 */
	public static Duration sweepInterval(Duration pollInterval) {
		Duration five = pollInterval.multipliedBy(5);
		return (five.compareTo(Duration.ofSeconds(1)) < 0) ? Duration.ofSeconds(1) : five;
	}

	/** Asks for a dispatch soon (a publish's notification). */
	public void dispatchSoon() {
		if (this.asked.availablePermits() == 0) {
			this.asked.release();
		}
	}

	@Override
	public void start() {
		this.running = true;
		this.thread = Thread.ofVirtual().name("durable-topics").start(this::loop);
		dispatchSoon();
	}

	@Override
	public void beginStop() {
		this.running = false;
		this.asked.release();
	}

	@Override
	public void awaitStopped(long deadlineNanos) {
		Thread loop = this.thread;
		if (loop == null) {
			return;
		}
		try {
			loop.join(Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())).plusSeconds(1));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void loop() {
		while (this.running) {
			try {
				this.asked.tryAcquire(this.sweepInterval.toMillis(), TimeUnit.MILLISECONDS);
				this.asked.drainPermits();
				if (this.running) {
					dispatch();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (RuntimeException ex) {
				log.warn("Dispatching topic events failed; trying again: {}", ex.getMessage());
				sleepQuietly();
			}
		}
	}

	private void sleepQuietly() {
		try {
			Thread.sleep(Math.min(1000, this.sweepInterval.toMillis()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Matches every published event and delivers every staged one; the test kit's seam.
	 */
	public void dispatch() {
		boolean more = true;
		while (more && this.running) {
			more = false;
			for (Map<String, Object> topic : this.jdbc.queryForList(this.topicsWithEvents)) {
				more |= matchRound((String) topic.get("namespace"), (String) topic.get("topic"));
			}
			more |= deliverRound();
		}
		for (Runnable step : this.afterDispatch) {
			step.run();
		}
	}

	/** Matches a round of a topic's events. @return whether it matched any */
	private boolean matchRound(String namespace, String topic) {
		int[] actions = new int[1];
		Boolean matched = this.tx.execute((status) -> {
			List<Published> events = this.jdbc.query(this.claimEvents,
					(rs, n) -> new Published(rs.getString(3), rs.getString(4), rs.getTimestamp(5).toInstant()),
					namespace, topic);
			if (events.isEmpty()) {
				return false;
			}
			this.jdbc.update(this.ensureTopic, namespace, topic);
			Long last = this.jdbc.queryForObject(this.advanceTopic, Long.class, events.size(), namespace, topic);
			long position = last - events.size();
			for (Published event : events) {
				position++;
				this.jdbc.update(this.placeEvent, position, namespace, topic, event.eventId());
				this.jdbc.update(this.matchWaits, namespace, topic, event.payload(), position, namespace, topic,
						event.eventId(), position);
				actions[0] += this.jdbc.update(this.stageActions, event.eventId(), position,
						Sql.ts(this.clock.instant()), namespace, topic);
			}
			if (actions[0] > 0) {
				// the nodes that register the triggered types act on them once this
				// commits
				this.jdbc.queryForList("SELECT pg_notify(?, ?)", this.channel, TopicMatch.NOTIFICATION);
			}
			return true;
		});
		return Boolean.TRUE.equals(matched);
	}

	/** Delivers a round of staged deliveries. @return whether there may be more */
	private boolean deliverRound() {
		List<Delivery> staged = this.jdbc.query(this.stagedDeliveries,
				(rs, n) -> new Delivery(rs.getObject(1, UUID.class), rs.getLong(2), rs.getString(3), rs.getString(4),
						rs.getLong(5), rs.getString(6), rs.getTimestamp(7).toInstant()));
		if (staged.isEmpty()) {
			return false;
		}
		Map<UUID, UUID> woken = new LinkedHashMap<>();
		int[] delivered = new int[1];
		this.tx.executeWithoutResult((status) -> {
			UUID[] runIds = staged.stream().map(Delivery::runId).distinct().toArray(UUID[]::new);
			Set<UUID> existing = new HashSet<>(this.jdbc.queryForList(this.existingRuns, UUID.class, (Object) runIds));
			Map<UUID, Boolean> open = new HashMap<>();
			Map<UUID, UUID> owners = new HashMap<>();
			this.jdbc.query(this.lockRuns, (rs) -> {
				UUID runId = rs.getObject(1, UUID.class);
				open.put(runId, rs.getBoolean(3));
				owners.put(runId, rs.getObject(2, UUID.class));
			}, (Object) runIds);
			List<Delivery> taken = new ArrayList<>();
			for (Delivery delivery : staged) {
				// a run that is gone (retention) or closed takes nothing; a run whose row
				// a
				// commit holds is left for the next round
				if (!existing.contains(delivery.runId()) || open.containsKey(delivery.runId())) {
					taken.add(delivery);
				}
			}
			// removing the staged rows first: a delivery another node's round moved to
			// the
			// inbox meanwhile is gone, and is not delivered twice
			Set<String> removed = new HashSet<>();
			if (!taken.isEmpty()) {
				this.jdbc.query(this.dropDeliveries, (rs) -> {
					removed.add(rs.getObject(1, UUID.class) + "/" + rs.getLong(2));
				}, taken.stream().map(Delivery::runId).toArray(UUID[]::new),
						taken.stream().map(Delivery::waitSeq).toArray(Long[]::new));
			}
			List<Delivery> toInbox = new ArrayList<>();
			for (Delivery delivery : taken) {
				if (removed.contains(delivery.runId() + "/" + delivery.waitSeq())
						&& Boolean.TRUE.equals(open.get(delivery.runId()))) {
					toInbox.add(delivery);
					woken.put(delivery.runId(), owners.get(delivery.runId()));
				}
			}
			this.jdbc.batchUpdate(this.insertInbox, toInbox, toInbox.size(), (PreparedStatement ps, Delivery d) -> {
				ps.setObject(1, d.runId());
				ps.setString(2, InboxKind.EVENT.stored());
				ps.setString(3, null);
				ps.setBytes(4,
						EventCodec.write(List.of(d.event(Payloads.storedFromJson(this.converter, d.payload())))));
			});
			this.jdbc.batchUpdate(this.markInput, toInbox, toInbox.size(),
					(PreparedStatement ps, Delivery d) -> ps.setObject(1, d.runId()));
			delivered[0] = taken.size();
		});
		woken.forEach(this.wake);
		if (delivered[0] == 0) {
			// every run was locked by a commit: let the commits end first
			sleepQuietly();
		}
		return true;
	}

	private record Published(String eventId, String payload, Instant publishedAt) {
	}

	private record Delivery(UUID runId, long waitSeq, String topic, String eventId, long position, String payload,
			Instant publishedAt) {

		Event event(byte[] encoded) {
			return new Event.TopicEventReceived(this.waitSeq, this.topic, this.eventId, this.position, encoded,
					this.publishedAt);
		}

	}

}
