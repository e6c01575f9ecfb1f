package dev.durable.workflow.internal.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heartbeat's own connection, closed when the engine stops with the database
 * answering, goes back to its pool whole: aborting a healthy connection made the pool log
 * it as broken, with a stack trace, on every clean shutdown. A connection a statement
 * failed on is still aborted (its socket may hang on a silent network).
 */
class HeartbeatConnectionCloseTest {

	// one connection: the pool hands out the same one until it drops it
	private final HikariDataSource pool = TestDatabase.pool(TestDatabase.jdbcUrl(), 1);

	@AfterEach
	void close() {
		this.pool.close();
	}

	@Test
	void aHealthyConnectionGoesBackToItsPoolAtTheStop() throws SQLException {
		DedicatedConnection heartbeat = new DedicatedConnection(this.pool, Duration.ofSeconds(10));
		int before;
		try (Connection connection = heartbeat.getConnection()) {
			before = backend(connection);
		}
		heartbeat.close();
		try (Connection connection = this.pool.getConnection()) {
			assertThat(backend(connection)).as("the pool's connection after the stop").isEqualTo(before);
		}
		assertThat(this.pool.getHikariPoolMXBean().getTotalConnections()).isEqualTo(1);
	}

	@Test
	void aConnectionAStatementFailedOnIsAbortedAndOpenedAnew() throws SQLException {
		DedicatedConnection heartbeat = new DedicatedConnection(this.pool, Duration.ofSeconds(10));
		int before;
		try (Connection connection = heartbeat.getConnection()) {
			before = backend(connection);
			try (Statement statement = connection.createStatement()) {
				statement.execute("SELECT no_such_function()");
			}
			catch (SQLException expected) {
				// marks it broken
			}
		}
		try (Connection connection = heartbeat.getConnection()) {
			assertThat(backend(connection)).as("the heartbeat's connection after the failure").isNotEqualTo(before);
		}
		heartbeat.close();
	}

	private static int backend(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT pg_backend_pid()")) {
			rows.next();
			return rows.getInt(1);
		}
	}

}
