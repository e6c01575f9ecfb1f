package dev.durable.workflow.activity;

/**
 * The isolation level of a transactional activity's transaction (see
 * {@link ActivityMethod#transactional()}).
 */
public enum TransactionIsolation {

	/**
	 * The engine's default for transactional activities (itself READ_COMMITTED unless
	 * configured).
	 */
	DEFAULT,

	/** PostgreSQL's default: each statement sees what was committed before it began. */
	READ_COMMITTED,

	/**
	 * One snapshot for the whole transaction; a write to a row changed since then aborts
	 * it with a serialization failure, which the engine retries (see
	 * {@link ActivityMethod#serializationRetries()}).
	 */
	REPEATABLE_READ,

	/**
	 * As if the transactions ran one after the other; conflicts abort with a
	 * serialization failure.
	 */
	SERIALIZABLE

}
