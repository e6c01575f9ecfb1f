package dev.durable.workflow.internal.inline;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.activity.TaskToken;
import dev.durable.workflow.internal.activity.ThrottledHeartbeats;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.ActivityPauses;
import dev.durable.workflow.internal.store.ActivityRepository;
import dev.durable.workflow.internal.store.StoredActivity;

/**
 * The rows an inline activity writes while its run is owned here: heartbeats, failed
 * attempts with their retry time, and the task token of an attempt completed through the
 * completion client. Each write is fenced by the run's owner and epoch, and made under
 * the run's task lock unless a committed task has ended the activity meanwhile.
 */
final class InlineActivityRows {

	private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(InlineActivityRows.class);

	private final ActivityRepository store;

	private final Clock clock;

	private final UUID node;

	InlineActivityRows(ActivityRepository store, Clock clock, UUID node) {
		this.store = store;
		this.clock = clock;
		this.node = node;
	}

	/**
	 * Persists heartbeats at most once a second (the details reach the next attempt), and
	 * tells the attempt whether its activity is paused.
	 */
	Consumer<byte[]> heartbeatSink(InlineRun slot, StoredActivity activity, Supplier<ActivityAttempt> attempt) {
		return ThrottledHeartbeats.sink(this.clock, ThrottledHeartbeats.INTERVAL, (details, now) -> {
			if (whileAwaited(slot, activity.seq(),
					() -> this.store.heartbeat(activity, details, now, this.node, slot.epoch()))) {
				attempt.get().pauseSeen(this.store.pauses().isPaused(activity.runId(), activity.seq()));
			}
		});
	}

	/**
	 * The attempt's task token, made valid on first use: the row is written with it
	 * (state STARTED, this node), so the completion client can find it from any node.
	 */
	AttemptToken token(InlineRun slot, StoredActivity activity) {
		return new AttemptToken(slot, activity);
	}

	/**
	 * Persists a failed attempt and its retry time; see
	 * {@link ActivityRepository#recordFailedAttempt}.
	 */
	boolean recordFailedAttempt(InlineRun slot, StoredActivity activity, int nextAttempt, Instant next, byte[] failure,
			byte[] lastHeartbeat, UUID tokenInRow) {
		// an attempt completed through the completion client counts on (a reset waits
		// for the next one)
		return whileAwaited(slot, activity.seq(),
				() -> (tokenInRow != null)
						? this.store.retryAsync(activity, tokenInRow, next, failure, lastHeartbeat, this.node,
								slot.epoch())
						: this.store.recordFailedAttempt(activity, nextAttempt, next, failure, lastHeartbeat, this.node,
								slot.epoch()));
	}

	/** What operators set for the activities. */
	ActivityPauses pauses() {
		return this.store.pauses();
	}

	/**
	 * The node stops before the activity's first attempt started: see
	 * {@link ActivityRepository#recordNotStarted}.
	 */
	boolean recordNotStarted(InlineRun slot, StoredActivity activity) {
		return whileAwaited(slot, activity.seq(), () -> this.store.recordNotStarted(activity, this.node, slot.epoch()));
	}

	/**
	 * An attempt the stopping node does not start. A first attempt has no row yet: one is
	 * written saying it never started, else the next owner would count it as an attempt
	 * lost with this node. A later attempt's row already holds its number and time; the
	 * next owner counts it as lost when its time has passed (a retry that came due during
	 * the stop), which the retry policy then retries.
	 */
	void notStarted(InlineRun slot, StoredActivity activity) {
		if (activity.attempt() == 1 && !slot.hasStoredActivity(activity.seq())) {
			try {
				recordNotStarted(slot, activity);
			}
			catch (RuntimeException ex) {
				log.debug("Could not record that activity {} (seq {}) of run {} did not start: {}",
						activity.activityType(), activity.seq(), activity.runId(), ex.getMessage());
			}
		}
		log.debug("Not starting activity {} (seq {}) of run {}: the node is stopping", activity.activityType(),
				activity.seq(), activity.runId());
	}

	/**
	 * The attempt's method returned without completing it: its row waits for the
	 * completion client.
	 */
	boolean awaitCompletion(InlineRun slot, StoredActivity activity, UUID token) {
		return whileAwaited(slot, activity.seq(), () -> this.store.markAsync(activity.runId(), activity.seq(), token));
	}

	/**
	 * Writes an activity's row under the run's task lock, unless a committed task has
	 * ended the activity (canceled it) meanwhile: a row written after the commit that
	 * would have deleted it would outlive the activity. Task commits read
	 * {@link InlineRun#hasStoredActivity} under the same lock, so the commit that ends
	 * the activity deletes what this wrote.
	 * @return what the write returned, or false when the activity is no longer awaited
	 */
	boolean whileAwaited(InlineRun slot, long seq, BooleanSupplier write) {
		slot.lockTask();
		try {
			WorkflowRunner runner = slot.runner();
			if (slot.isDead() || (runner != null && !runner.isActivityPending(seq))) {
				return false;
			}
			boolean written = write.getAsBoolean();
			if (written) {
				slot.activityStored(seq);
			}
			return written;
		}
		finally {
			slot.unlockTask();
		}
	}

	/** The token of one inline attempt, written to its row on first use. */
	final class AttemptToken implements Supplier<String> {

		private final InlineRun slot;

		private final StoredActivity activity;

		private volatile UUID written;

		private AttemptToken(InlineRun slot, StoredActivity activity) {
			this.slot = slot;
			this.activity = activity;
		}

		/**
		 * The token as the row holds it, or {@code null} while it was never asked for.
		 */
		UUID inRow() {
			return this.written;
		}

		@Override
		public synchronized String get() {
			if (this.written == null) {
				UUID token = UUID.randomUUID();
				if (!whileAwaited(this.slot, this.activity.seq(),
						() -> InlineActivityRows.this.store.startAsync(this.activity, token,
								InlineActivityRows.this.clock.instant(), InlineActivityRows.this.node,
								this.slot.epoch()))) {
					throw new IllegalStateException("Activity " + this.activity.activityType()
							+ " is no longer awaited by its workflow (canceled, or the run moved to another node)");
				}
				this.written = token;
			}
			return new TaskToken(this.activity.runId(), this.activity.seq(), this.written).encode();
		}

	}

}
