package dev.durable.workflow.internal.store;

import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A transaction whose connection the node's fence aborted ends with the statement's own
 * failure: the rollback of a connection that is gone does nothing (the server ended the
 * transaction with it), instead of failing with "Connection is closed", which the
 * transaction template would log as an ERROR and throw in place of the statement's
 * failure.
 */
class AbortedConnectionRollbackTest {

	private final HikariDataSource pool = TestDatabase.pool(TestDatabase.jdbcUrl(), 2);

	@AfterEach
	void close() {
		this.pool.close();
	}

	@Test
	void aTransactionAbortedByTheFenceFailsWithItsStatementsFailure() {
		EngineDataSource engine = new EngineDataSource(this.pool, Duration.ofSeconds(10), () -> null);
		TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(engine));
		JdbcTemplate jdbc = new JdbcTemplate(engine);
		assertThatThrownBy(() -> tx.executeWithoutResult((status) -> {
			jdbc.queryForObject("SELECT 1", Integer.class);
			// the fence aborts what the engine holds while the transaction is open
			engine.abortAll();
			jdbc.queryForObject("SELECT pg_sleep(5)", Object.class);
		})).isInstanceOf(DataAccessResourceFailureException.class);
	}

}
