package dev.durable.workflow.internal.inline;

import java.sql.SQLException;
import java.util.UUID;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.DefaultTransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.activity.ActivityInvoker;
import dev.durable.workflow.internal.activity.TransactionScope;
import dev.durable.workflow.internal.activity.TransactionalSettings;
import dev.durable.workflow.internal.registry.ActivityDefinition;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.store.ActivityRepository;
import dev.durable.workflow.internal.store.StoredActivity;

/**
 * The attempts of transactional activities: each runs in a transaction on the engine's
 * data source, and the same transaction records its result in the activity's row (fenced
 * by the run's owner and epoch, see
 * {@link ActivityRepository#recordTransactionalResult}), so that the activity's own
 * writes and its completion commit together or not at all. A serialization failure or a
 * deadlock runs the transaction again, up to the activity's limit, within the same
 * attempt.
 */
final class TransactionalAttempt {

	private static final Logger log = LoggerFactory.getLogger(TransactionalAttempt.class);

	private final TransactionalSettings settings;

	private final ActivityRegistry registry;

	private final ActivityInvoker invoker;

	private final ActivityRepository store;

	private final InlineActivityRows rows;

	private final UUID node;

	TransactionalAttempt(TransactionalSettings settings, ActivityRegistry registry, ActivityInvoker invoker,
			ActivityRepository store, InlineActivityRows rows, UUID node) {
		this.settings = settings;
		this.registry = registry;
		this.invoker = invoker;
		this.store = store;
		this.rows = rows;
		this.node = node;
	}

	/**
	 * The transaction of an attempt, or {@code null} when its activity is not
	 * transactional.
	 */
	@Nullable Run begin(InlineRun slot, StoredActivity activity, ActivityAttempt attempt) {
		ActivityDefinition definition = this.registry.find(activity.activityType());
		if (definition == null || definition.target() == null) {
			return null;
		}
		TransactionalSettings.Spec spec = this.settings.spec(definition.method());
		return (spec != null) ? new Run(slot, activity, attempt, spec) : null;
	}

	/**
	 * Whether a throwable, or one of its causes, is a serialization failure or a
	 * deadlock.
	 */
	static boolean isSerializationFailure(@Nullable Throwable failure) {
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t instanceof SQLException sql
					&& ("40001".equals(sql.getSQLState()) || "40P01".equals(sql.getSQLState()))) {
				return true;
			}
			if (t.getCause() == t) {
				break;
			}
		}
		return false;
	}

	/** The transaction of one attempt, and what became of it. */
	final class Run {

		private final InlineRun slot;

		private final StoredActivity activity;

		private final ActivityAttempt attempt;

		private final TransactionalSettings.Spec spec;

		/**
		 * Whether this attempt's own code won the race against its timeouts and cancel.
		 */
		private boolean owned;

		/** The fenced write found the run or the activity gone: nothing is reported. */
		private boolean stale;

		private byte @Nullable [] committed;

		private Run(InlineRun slot, StoredActivity activity, ActivityAttempt attempt, TransactionalSettings.Spec spec) {
			this.slot = slot;
			this.activity = activity;
			this.attempt = attempt;
			this.spec = spec;
		}

		/**
		 * Runs the activity's method in a transaction and commits it with the result: the
		 * body of the interceptors' call.
		 */
		Object call(Callable<Object> method) throws Exception {
			int runsAgain = 0;
			while (true) {
				try {
					return once(method);
				}
				catch (Exception | Error ex) {
					if (isSerializationFailure(ex) && runsAgain < this.spec.serializationRetries() && !this.stale) {
						runsAgain++;
						log.debug(
								"Transactional activity {} (seq {}) of run {} hit a serialization failure; running"
										+ " its transaction again ({} of {})",
								this.activity.activityType(), this.activity.seq(), this.activity.runId(), runsAgain,
								this.spec.serializationRetries());
						continue;
					}
					throw ex;
				}
			}
		}

		private Object once(Callable<Object> method) throws Exception {
			DefaultTransactionDefinition definition = new DefaultTransactionDefinition(
					TransactionDefinition.PROPAGATION_REQUIRES_NEW);
			definition.setIsolationLevel(this.spec.isolation());
			definition.setName("durable-activity:" + this.activity.activityType());
			TransactionStatus status = TransactionalAttempt.this.settings.manager().getTransaction(definition);
			TransactionScope.enter(TransactionalAttempt.this.settings.dataSource());
			try {
				if (TransactionSynchronizationManager
					.getResource(TransactionalAttempt.this.settings.dataSource()) == null) {
					throw ApplicationFailure
						.newNonRetryableFailure("The transaction manager of transactional activities"
								+ " does not bind connections of the engine's DataSource, so the activity's writes and its"
								+ " completion cannot commit together; give the engine a transaction manager of its DataSource",
								"TransactionalActivity");
				}
				Object result = method.call();
				if (this.attempt.completesAsynchronously()) {
					throw ApplicationFailure.newNonRetryableFailure("A transactional activity cannot complete"
							+ " asynchronously (doNotCompleteOnReturn): its transaction ends when its method returns",
							"TransactionalActivity");
				}
				byte[] encoded = TransactionalAttempt.this.invoker.encodeResult(this.activity.activityType(), result);
				if (!this.owned && !this.attempt.finish()) {
					// a timeout or a cancel decided the attempt: its writes roll back
					return result;
				}
				this.owned = true;
				commit(status, encoded);
				return result;
			}
			finally {
				TransactionScope.exit();
				if (!status.isCompleted()) {
					rollback(status);
				}
			}
		}

		/**
		 * Rolls back; a rollback that fails (a lost connection) must not hide why the
		 * attempt ended.
		 */
		private void rollback(TransactionStatus status) {
			try {
				TransactionalAttempt.this.settings.manager().rollback(status);
			}
			catch (RuntimeException ex) {
				log.debug("Rolling back transactional activity {} (seq {}) of run {} failed: {}",
						this.activity.activityType(), this.activity.seq(), this.activity.runId(), ex.toString());
			}
		}

		/**
		 * Writes the result and commits, under the run's task lock (see
		 * {@link InlineActivityRows#whileAwaited}); a commit that fails is checked
		 * against the row, as its outcome may be unknown (a lost connection).
		 */
		private void commit(TransactionStatus status, byte[] encoded) {
			RuntimeException commitFailure = null;
			boolean written;
			try {
				written = TransactionalAttempt.this.rows.whileAwaited(this.slot, this.activity.seq(), () -> {
					if (!TransactionalAttempt.this.store.recordTransactionalResult(this.activity, encoded,
							TransactionalAttempt.this.node, this.slot.epoch())) {
						return false;
					}
					TransactionalAttempt.this.settings.manager().commit(status);
					return true;
				});
			}
			catch (RuntimeException ex) {
				commitFailure = ex;
				written = status.isCompleted() && resultRecorded();
			}
			if (written) {
				this.committed = encoded;
				return;
			}
			if (commitFailure != null) {
				throw commitFailure;
			}
			this.stale = true;
			throw new IllegalStateException("Transactional activity " + this.activity.activityType() + " (seq "
					+ this.activity.seq() + ") of run " + this.activity.runId()
					+ " is no longer awaited here (canceled, or the run moved to another node): its writes roll back");
		}

		private boolean resultRecorded() {
			try {
				return TransactionalAttempt.this.store.transactionalResults(this.activity.runId())
					.containsKey(this.activity.seq());
			}
			catch (RuntimeException ex) {
				return false;
			}
		}

		/**
		 * Whether the thread that ran the attempt reports its outcome: it committed, or
		 * its code won the race against the timeouts and the cancel. A stale attempt
		 * reports nothing.
		 */
		boolean decides() {
			if (this.stale) {
				this.slot.attemptEnded(this.activity.seq());
				return false;
			}
			return this.committed != null || this.owned || this.attempt.finish();
		}

		/** The encoded result the transaction committed, or {@code null}. */
		byte @Nullable [] committed() {
			return this.committed;
		}

	}

}
