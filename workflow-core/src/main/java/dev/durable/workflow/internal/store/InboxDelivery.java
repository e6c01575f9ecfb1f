package dev.durable.workflow.internal.store;

import java.util.UUID;

/**
 * What became of an item sent to a run's inbox.
 */
public sealed interface InboxDelivery {

	/** The run is closed: it got nothing. */
	InboxDelivery RUN_CLOSED = new RunClosed();

	/**
	 * A retried send whose first attempt was stored (its idempotency key or update id was
	 * seen before): nothing was sent again.
	 */
	InboxDelivery ALREADY_SENT = new AlreadySent();

	/** See {@link #RUN_CLOSED}. */
	record RunClosed() implements InboxDelivery {
	}

	/** See {@link #ALREADY_SENT}. */
	record AlreadySent() implements InboxDelivery {
	}

	/**
	 * The item is in the open run's inbox and the run is marked as having pending input.
	 *
	 * @param owner the node holding the run (to wake), or {@code null} when no node holds
	 * it
	 */
	record Delivered(UUID owner) implements InboxDelivery {
	}

}
