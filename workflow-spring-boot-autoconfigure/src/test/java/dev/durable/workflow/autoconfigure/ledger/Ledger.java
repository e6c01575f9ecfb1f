package dev.durable.workflow.autoconfigure.ledger;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.failure.ApplicationFailure;

/** Books entries in the application's table, in the activity's transaction. */
@Activity
public class Ledger {

	private final JdbcTemplate jdbc;

	public Ledger(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Inserts the entry and answers the isolation level its transaction runs at; an
	 * amount below zero fails after the insert, which must then roll back.
	 */
	@ActivityMethod(transactional = true, maxAttempts = 1)
	public String book(String table, String entry, int amount) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("no transaction");
		}
		this.jdbc.update("INSERT INTO " + table + " (entry, amount) VALUES (?, ?)", entry, amount);
		if (amount < 0) {
			throw ApplicationFailure.newNonRetryableFailure("negative amount", "Negative");
		}
		return this.jdbc.queryForObject("SHOW transaction_isolation", String.class);
	}

}
