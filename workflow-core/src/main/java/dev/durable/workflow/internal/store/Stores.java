package dev.durable.workflow.internal.store;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The repositories of one schema, made once per engine and shared by the node and the
 * clients.
 *
 * @param runs runs, inbox and visibility
 * @param ownership claims, releases and the owner-fenced writes of runs
 * @param tasks history
 * @param activities activity attempts
 * @param nodes node registrations and heartbeats
 * @param dedup signal idempotency keys and update outcomes
 * @param retention deletion of closed runs
 * @param tx transactions on the engine's data source
 * @param jdbc the template they share, for the engine's other statements on the schema
 */
public record Stores(RunRepository runs, RunOwnership ownership, TaskRepository tasks, ActivityRepository activities,
		NodeRepository nodes, DedupRepository dedup, RetentionRepository retention, TransactionTemplate tx,
		JdbcTemplate jdbc) {

	/** The repositories of the schema, on the data source. */
	public static Stores of(DataSource dataSource, String schema) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		RunRepository runs = new RunRepository(jdbc, schema);
		return new Stores(runs, new RunOwnership(jdbc, schema), new TaskRepository(jdbc, schema),
				new ActivityRepository(jdbc, schema), new NodeRepository(jdbc, schema),
				new DedupRepository(jdbc, schema), new RetentionRepository(jdbc, schema),
				new TransactionTemplate(new DataSourceTransactionManager(dataSource)), jdbc);
	}

}
