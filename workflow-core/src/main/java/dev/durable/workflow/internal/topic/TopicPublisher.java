package dev.durable.workflow.internal.topic;

import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.client.TopicStatus;

import dev.durable.workflow.internal.store.Sql;

/**
 * Publishes an event: the schema's {@code publish_event} function, the one path the
 * client, the REST API and SQL callers share (stored once per event id, dispatched once
 * the transaction commits). Lists the namespace's topics.
 */
public final class TopicPublisher {

	/** What a publish answers: the event's id, and whether this call stored it. */
	public record Published(String eventId, boolean stored) {
	}

	/** The most topics {@link #topics()} lists. */
	public static final int MAX_TOPICS = 1000;

	private final JdbcTemplate jdbc;

	private final String publish;

	private final String namespace;

	private final String topics;

	public TopicPublisher(JdbcTemplate jdbc, String schema, String namespace) {
		this.jdbc = jdbc;
		this.namespace = namespace;
		this.publish = Sql.q(schema, "SELECT event_id, published FROM #.publish_event(?, ?::jsonb, ?, ?)");
		// a topic has a row once a wait or a dispatch met it; the counts read the indexes
		// of the waits and of the undispatched events
		this.topics = Sql.q(schema, "SELECT t.topic, t.last_position, t.last_event_at,"
				+ " (SELECT count(*) FROM #.event_wait w WHERE w.namespace = t.namespace AND w.topic = t.topic),"
				+ " (SELECT count(*) FROM #.topic_event e WHERE e.namespace = t.namespace AND e.topic = t.topic"
				+ " AND e.position IS NULL)" + " FROM #.event_topic t WHERE t.namespace = ? ORDER BY t.topic LIMIT "
				+ MAX_TOPICS);
	}

	/** The namespace's topics, by name. */
	public List<TopicStatus> topics() {
		return this.jdbc.query(this.topics, (rs, n) -> new TopicStatus(rs.getString(1), rs.getLong(2),
				(rs.getTimestamp(3) != null) ? rs.getTimestamp(3).toInstant() : null, rs.getLong(4), rs.getLong(5)),
				this.namespace);
	}

	/**
	 * @param payloadJson the payload as JSON text
	 * @param eventId the event's id, or {@code null} for a new one
	 */
	public Published publish(String topic, String payloadJson, String eventId) {
		return this.jdbc.queryForObject(this.publish, (rs, n) -> new Published(rs.getString(1), rs.getBoolean(2)),
				topic, payloadJson, eventId, this.namespace);
	}

}
