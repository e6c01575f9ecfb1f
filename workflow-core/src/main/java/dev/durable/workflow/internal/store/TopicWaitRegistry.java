package dev.durable.workflow.internal.store;

import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.history.Event.TopicWaitStarted;

/**
 * Registers and removes a run's waits for topic events, inside the commit of the task
 * that began or ended them.
 * <p>
 * A registration reads the topic's last dispatched position {@code FOR SHARE}, which a
 * dispatch holds locked (updated) until it commits: either the dispatch sees the wait, or
 * the wait begins after the dispatch and counts only the positions past it. A wait that
 * asks for events after an earlier position first looks for a dispatched one that
 * matches; the first it finds is staged for delivery instead of registering the wait.
 */
final class TopicWaitRegistry {

	private final JdbcTemplate jdbc;

	private final String ensureTopic;

	private final String lastPosition;

	private final String register;

	private final String unregister;

	private final String channel;

	TopicWaitRegistry(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.ensureTopic = Sql.q(schema,
				"INSERT INTO #.event_topic (namespace, topic) VALUES (?, ?) ON CONFLICT DO NOTHING");
		this.lastPosition = Sql.q(schema,
				"SELECT last_position FROM #.event_topic WHERE namespace = ? AND topic = ? FOR SHARE");
		// the shape's fields are the match's keys, sorted: the same for every wait of a
		// call site, so a dispatch finds its waits by one projection per shape
		this.register = Sql.q(schema, "WITH p AS (SELECT r.*, ARRAY(SELECT jsonb_object_keys(r.match) ORDER BY 1)"
				+ " AS fields FROM (SELECT ?::uuid AS run_id, ?::bigint AS seq, ?::text AS ns, ?::text AS topic,"
				+ " ?::jsonb AS match, ?::bigint AS after, ?::bigint AS last) r),"
				+ " shape AS (INSERT INTO #.event_wait_shape (namespace, topic, fields) SELECT ns, topic, fields FROM p"
				+ " ON CONFLICT DO NOTHING),"
				+ " hit AS (INSERT INTO #.event_delivery (run_id, wait_seq, namespace, topic, event_id, position)"
				+ " SELECT p.run_id, p.seq, e.namespace, e.topic, e.event_id, e.position FROM p JOIN #.topic_event e"
				+ " ON e.namespace = p.ns AND e.topic = p.topic AND e.position > p.after AND e.position <= p.last"
				+ " WHERE " + TopicMatch.projection("e.payload", "p.fields") + " = p.match"
				+ " ORDER BY e.position LIMIT 1 RETURNING 1),"
				+ " waits AS (INSERT INTO #.event_wait (run_id, wait_seq, namespace, topic, fields, match,"
				+ " after_position) SELECT run_id, seq, ns, topic, fields, match, after FROM p"
				+ " WHERE NOT EXISTS (SELECT 1 FROM hit))" + " SELECT pg_notify(?, ?) FROM hit");
		this.channel = TopicMatch.channel(schema);
		this.unregister = Sql.q(schema, "DELETE FROM #.event_wait WHERE run_id = ? AND wait_seq = ?");
	}

	void register(UUID runId, String namespace, TopicWaitStarted wait) {
		this.jdbc.update(this.ensureTopic, namespace, wait.topic());
		Long last = this.jdbc.queryForObject(this.lastPosition, Long.class, namespace, wait.topic());
		long dispatched = (last != null) ? last : 0L;
		long after = (wait.afterPosition() != null) ? Math.min(wait.afterPosition(), dispatched) : dispatched;
		this.jdbc.query(this.register, (rs) -> {
		}, runId, wait.seq(), namespace, wait.topic(), wait.match(), after, dispatched, this.channel,
				TopicMatch.NOTIFICATION);
	}

	void unregister(UUID runId, long seq) {
		this.jdbc.update(this.unregister, runId, seq);
	}

}
