package dev.durable.workflow.internal.store;

import javax.sql.DataSource;

/**
 * What a node does to its database before it starts: with a direct data source besides
 * the pooled one (a transaction-mode pooler such as PgBouncer in front), the check that
 * the pooled one keeps prepared statements working; then the schema migration, over the
 * direct one, since Liquibase and the migration's advisory lock are session state.
 */
public final class NodeDatabase {

	private NodeDatabase() {
	}

	/**
	 * @param pooled the engine's data source
	 * @param direct connections straight to PostgreSQL; {@code pooled} itself when there
	 * is no pooler
	 * @param migrate whether to create and upgrade the schema
	 */
	public static void prepare(DataSource pooled, DataSource direct, String schema, boolean migrate) {
		if (direct != pooled) {
			PooledStatementsCheck.verify(pooled);
		}
		if (migrate) {
			new SchemaMigrator(direct, schema).migrate();
		}
	}

}
