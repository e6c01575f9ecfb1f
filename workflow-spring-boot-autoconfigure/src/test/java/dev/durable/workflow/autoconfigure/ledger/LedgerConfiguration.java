package dev.durable.workflow.autoconfigure.ledger;

import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;

/**
 * An application with a transactional activity that writes through its own
 * {@code JdbcTemplate}, and a transaction manager of its own on the same data source.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class LedgerConfiguration {

	@Bean
	JdbcTemplate jdbcTemplate(DataSource dataSource) {
		return new JdbcTemplate(dataSource);
	}

	@Bean
	CountingTransactionManager transactionManager(DataSource dataSource) {
		return new CountingTransactionManager(dataSource);
	}

	@Bean
	Ledger ledger(JdbcTemplate jdbc) {
		return new Ledger(jdbc);
	}

	/** The application's transaction manager, counting the transactions it began. */
	public static class CountingTransactionManager extends DataSourceTransactionManager {

		public final AtomicInteger begun = new AtomicInteger();

		CountingTransactionManager(DataSource dataSource) {
			super(dataSource);
		}

		@Override
		protected void doBegin(Object transaction, TransactionDefinition definition) {
			this.begun.incrementAndGet();
			super.doBegin(transaction, definition);
		}

	}

}
