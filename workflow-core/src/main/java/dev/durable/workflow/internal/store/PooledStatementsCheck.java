package dev.durable.workflow.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.PGStatement;

/**
 * Fails an engine start early when its data source goes through a transaction-mode pooler
 * (such as PgBouncer with {@code pool_mode = transaction}) that would break the driver's
 * named server-side prepared statements later, under load, with "prepared statement S_n
 * does not exist". Named statements survive only when the pooler tracks them itself
 * (PgBouncer 1.21+ with {@code max_prepared_statements > 0}); with
 * {@code prepareThreshold=0} in the JDBC URL the driver never names one. The check runs
 * only when a direct data source was configured, which is how the operator says that a
 * pooler sits in front of the ordinary one.
 *
 * <p>
 * The probe names a statement on one client connection, makes a second client connection
 * hold a server session in an open transaction (a pooler hands it the session just
 * released, the one that knows the statement), and runs the statement again on the first:
 * through a pooler that does not track statements it now lands on another server session,
 * which does not know the name. A round in which the statement stays on its session
 * proves nothing, so the probe tries a few times; a direct connection always stays, and
 * passes. (The probe's own named statement then stays on the first server session; the
 * driver with {@code prepareThreshold=0} never names a statement, so it cannot collide
 * with it.)
 */
public final class PooledStatementsCheck {

	/**
	 * PostgreSQL's "invalid SQL statement name": the server session does not know the
	 * statement.
	 */
	private static final String UNKNOWN_STATEMENT = "26000";

	/**
	 * "duplicate prepared statement": the server session holds another client's
	 * statement.
	 */
	private static final String DUPLICATE_STATEMENT = "42P05";

	/**
	 * Rounds of the probe that may land on the same server session before it gives up
	 * looking.
	 */
	private static final int ATTEMPTS = 5;

	private PooledStatementsCheck() {
	}

	/**
	 * @throws IllegalStateException when named prepared statements do not survive the
	 * pooler
	 */
	public static void verify(DataSource dataSource) {
		try (Connection first = dataSource.getConnection()) {
			if (first.unwrap(PGConnection.class).getPrepareThreshold() <= 0) {
				return; // the driver never names a statement: nothing to break
			}
			// in transactions: in autocommit the driver quietly prepares a statement the
			// server
			// session does not know again, but the engine's transactions cannot be
			// retried that way
			first.setAutoCommit(false);
			try (PreparedStatement probe = first.prepareStatement("SELECT pg_backend_pid()")) {
				probe.unwrap(PGStatement.class).setPrepareThreshold(1); // named from the
																		// first run
				for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
					if (movedAndSurvived(dataSource, first, probe)) {
						return;
					}
				}
				// always the same server session: a direct connection (or a pooler that
				// pins it)
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(
					"Cannot check the pooled data source's prepared statements: " + ex.getMessage(), ex);
		}
	}

	/**
	 * One round of the probe.
	 * @return whether the named statement ran on another server session than the one it
	 * was prepared on (and so survives the pooler); {@code false} when it stayed on the
	 * same session and proved nothing
	 * @throws IllegalStateException when the server session did not know the statement,
	 * or knew another client's statement of the same name
	 */
	private static boolean movedAndSurvived(DataSource dataSource, Connection first, PreparedStatement probe)
			throws SQLException {
		int before = backend(probe);
		first.commit();
		try (Connection second = dataSource.getConnection()) {
			second.setAutoCommit(false);
			try (PreparedStatement hold = second.prepareStatement("SELECT 1")) {
				hold.unwrap(PGStatement.class).setPrepareThreshold(0);
				hold.execute();
				int after = backend(probe);
				first.commit();
				return after != before;
			}
			finally {
				rollback(second);
			}
		}
	}

	private static int backend(PreparedStatement statement) throws SQLException {
		try (ResultSet rs = statement.executeQuery()) {
			rs.next();
			return rs.getInt(1);
		}
		catch (SQLException ex) {
			rollback(statement.getConnection());
			if (UNKNOWN_STATEMENT.equals(ex.getSQLState()) || DUPLICATE_STATEMENT.equals(ex.getSQLState())) {
				throw new IllegalStateException(message(), ex);
			}
			throw ex;
		}
	}

	/**
	 * Ends the holding transaction. Through a pooler that mixes named statements up, this
	 * can fail too (the driver's own named statements land on another client's session):
	 * the failure that matters is the probe's, and closing the connection ends the
	 * transaction anyway.
	 */
	private static void rollback(Connection connection) {
		try {
			connection.rollback();
		}
		catch (SQLException ex) {
			// see above
		}
	}

	private static String message() {
		return "The workflow engine's data source goes through a transaction-mode connection pooler (a direct"
				+ " data source is configured) that loses the PostgreSQL driver's named prepared statements"
				+ " between transactions. Add prepareThreshold=0 to the pooled JDBC URL, or use PgBouncer 1.21+"
				+ " with max_prepared_statements > 0 (see the PgBouncer section of docs/engine.md).";
	}

}
