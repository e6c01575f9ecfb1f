package dev.durable.workflow.internal.store;

/**
 * The kind of an inbox item, stored in the {@code kind} column of the {@code inbox} table
 * as {@link #stored()} (the constant's name).
 */
public enum InboxKind {

	/** A signal from a client, a workflow or a reset (name: the signal's name). */
	SIGNAL,

	/** An admitted update (name: the update's name; message id: the update id). */
	UPDATE,

	/** A cancel request (payload: the reason, UTF-8). */
	CANCEL,

	/**
	 * A termination by a parent that closed with policy TERMINATE (payload: the reason,
	 * UTF-8).
	 */
	TERMINATE,

	/** A child run started (name: the command's seq; message id: the child's run id). */
	CHILD_STARTED,

	/** A child run could not start (name: the command's seq; payload: the failure). */
	CHILD_START_FAILED,

	/** A child run completed (name: the command's seq; payload: its result). */
	CHILD_COMPLETED,

	/** A child run closed otherwise (name: the command's seq; payload: the failure). */
	CHILD_FAILED,

	/**
	 * A signal or cancel to another workflow was delivered, or not (name: the command's
	 * seq).
	 */
	EXTERNAL_DELIVERED,

	/**
	 * An activity attempt completed elsewhere (name: the activity's seq; payload: its
	 * result).
	 */
	ACTIVITY_COMPLETED,

	/**
	 * An activity failed for good elsewhere (name: the activity's seq; payload: the
	 * failure).
	 */
	ACTIVITY_FAILED,

	/**
	 * An asynchronously completed attempt of an inline activity failed and is retried:
	 * its row holds the next attempt, which the run's owner starts (name: the activity's
	 * seq). Not an input of the workflow.
	 */
	ACTIVITY_RETRY,

	/** An answer handed over by a reset, stored as the event itself. */
	EVENT;

	/** The value of the {@code kind} column. */
	public String stored() {
		return name();
	}

	/**
	 * The kind a stored value names.
	 * @param stored the value of the {@code kind} column
	 * @return its kind
	 * @throws IllegalArgumentException when no kind is stored as that value
	 */
	public static InboxKind of(String stored) {
		for (InboxKind kind : values()) {
			if (kind.stored().equals(stored)) {
				return kind;
			}
		}
		throw new IllegalArgumentException("Unknown inbox item kind " + stored);
	}

}
