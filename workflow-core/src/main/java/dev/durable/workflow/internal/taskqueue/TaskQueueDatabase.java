package dev.durable.workflow.internal.taskqueue;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The database the activity task worker claims from and reports to.
 *
 * @param jdbc the engine's statements
 * @param tx their transactions
 * @param schema the engine's schema
 */
public record TaskQueueDatabase(JdbcTemplate jdbc, TransactionTemplate tx, String schema) {
}
