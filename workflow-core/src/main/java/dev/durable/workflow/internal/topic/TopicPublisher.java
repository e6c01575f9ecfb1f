package dev.durable.workflow.internal.topic;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.store.Sql;

/**
 * Publishes an event: the schema's {@code publish_event} function, the one path the
 * client, the REST API and SQL callers share (stored once per event id, dispatched once
 * the transaction commits).
 */
public final class TopicPublisher {

	/** What a publish answers: the event's id, and whether this call stored it. */
	public record Published(String eventId, boolean stored) {
	}

	private final JdbcTemplate jdbc;

	private final String publish;

	private final String namespace;

	public TopicPublisher(JdbcTemplate jdbc, String schema, String namespace) {
		this.jdbc = jdbc;
		this.namespace = namespace;
		this.publish = Sql.q(schema, "SELECT event_id, published FROM #.publish_event(?, ?::jsonb, ?, ?)");
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
