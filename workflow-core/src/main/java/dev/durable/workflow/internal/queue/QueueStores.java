package dev.durable.workflow.internal.queue;

import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The queue rows of one schema, made once per engine: the definitions and reads, and the
 * admission rounds, which count workflow runs and task-queue activities alike.
 *
 * @param repository definitions, entries of started runs, reads
 * @param admission the admission round every kind of item goes through
 * @param jdbc the engine's template
 * @param schema the schema
 */
public record QueueStores(QueueRepository repository, QueueAdmission admission, JdbcTemplate jdbc, String schema) {

	public static QueueStores of(JdbcTemplate jdbc, String schema) {
		return new QueueStores(new QueueRepository(jdbc, schema),
				new QueueAdmission(jdbc, schema,
						List.of(new WorkflowOccupancy(jdbc, schema), new ActivityOccupancy(jdbc, schema))),
				jdbc, schema);
	}

}
