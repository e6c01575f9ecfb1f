package dev.durable.workflow.internal.store;

import java.util.UUID;
import java.util.function.Consumer;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The {@code result_awaited} flag of the run row: set by a node that waits for a run's
 * outcome without holding the run, so that the run's close, wherever it is committed,
 * notifies the nodes after its commit. A close of a run nobody waits for elsewhere
 * notifies no one.
 */
public final class AwaitedRuns {

	private final JdbcTemplate jdbc;

	private final String schema;

	/** Learns of awaited runs closed here without workflow code (terminate, timeout). */
	private volatile Consumer<UUID> closes = (runId) -> {
	};

	AwaitedRuns(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	/**
	 * Marks an open run awaited. A close in progress holds the run row's lock: the mark
	 * either commits first (the close sees it: a task's close compares the flag it read,
	 * and fails its compare-and-set when the flag changed) or finds the run closed.
	 * @return whether the run is open (and marked); {@code false}: closed or unknown,
	 * read it
	 */
	public boolean mark(UUID runId) {
		return this.jdbc.update(
				Sql.q(this.schema,
						"UPDATE #.workflow_run SET result_awaited = true WHERE run_id = ?" + " AND " + Sql.OPEN),
				runId) == 1;
	}

	/**
	 * Sets what learns of awaited runs closed without workflow code: told after the
	 * commit.
	 */
	public void onClose(Consumer<UUID> listener) {
		this.closes = listener;
	}

	/**
	 * A run is closing without workflow code in the current transaction (if any); when it
	 * is awaited, the listener learns of it once that commits, so that the waiters it
	 * wakes read the outcome.
	 */
	void closing(UUID runId, boolean awaited) {
		if (!awaited) {
			return;
		}
		Consumer<UUID> listener = this.closes;
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					listener.accept(runId);
				}
			});
		}
		else {
			listener.accept(runId);
		}
	}

}
