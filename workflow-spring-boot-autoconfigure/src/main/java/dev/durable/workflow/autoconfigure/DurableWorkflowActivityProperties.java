package dev.durable.workflow.autoconfigure;

import dev.durable.workflow.activity.TransactionIsolation;

/**
 * Defaults of activities.
 * <p>
 * Bound to {@code durable.workflow.activity.*}, as a part of
 * {@link DurableWorkflowProperties}.
 */
public class DurableWorkflowActivityProperties {

	private final Transactional transactional = new Transactional();

	public Transactional getTransactional() {
		return this.transactional;
	}

	/**
	 * Defaults of transactional activities
	 * ({@code @ActivityMethod(transactional = true)}), which an activity method's own
	 * {@code isolation} and {@code serializationRetries} override.
	 */
	public static class Transactional {

		/** Isolation level of a transactional activity's transaction. */
		private TransactionIsolation isolation = TransactionIsolation.READ_COMMITTED;

		/**
		 * How many times a transactional activity's transaction aborted by a
		 * serialization failure or a deadlock (SQLState 40001 or 40P01) runs again within
		 * the same attempt.
		 */
		private int serializationRetries = 10;

		public TransactionIsolation getIsolation() {
			return this.isolation;
		}

		public void setIsolation(TransactionIsolation isolation) {
			this.isolation = isolation;
		}

		public int getSerializationRetries() {
			return this.serializationRetries;
		}

		public void setSerializationRetries(int serializationRetries) {
			this.serializationRetries = serializationRetries;
		}

	}

}
