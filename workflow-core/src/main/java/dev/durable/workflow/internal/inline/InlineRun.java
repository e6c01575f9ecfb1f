package dev.durable.workflow.internal.inline;

import java.util.List;
import java.util.UUID;
import java.util.function.LongPredicate;

import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.commit.OwnedRun;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.RunRow;

/**
 * A run this node owns, as its inline activities see it: the attempts running for it, the
 * rows its activities have, and the hand-over of their outcomes to its next task.
 * Declared here so that the inline activity runtime does not depend on the run scheduling
 * that implements it.
 */
public interface InlineRun extends OwnedRun {

	/** The run's id. */
	UUID runId();

	/**
	 * Whether the node let the run go (closed, lost, evicted): nothing more runs for it
	 * here.
	 */
	boolean isDead();

	/** The run row as this node's last commit left it, or {@code null}. */
	RunRow cachedRow();

	/** The run's cached runner, or {@code null}. */
	WorkflowRunner runner();

	/** Takes the run's task lock: no task of the run commits meanwhile. */
	void lockTask();

	/** Releases the task lock. */
	void unlockTask();

	/** Hands an input (an activity outcome) to the run's next task. */
	void handOver(Event event);

	/**
	 * This node added an item to the run's inbox (an activity its retry policy paused):
	 * the run's next task reads the inbox, and is scheduled.
	 */
	void inboxChanged();

	/** Whether an attempt of the activity runs for the run. */
	boolean isRunning(long seq);

	/** An attempt of the activity started for the run. */
	void attemptStarted(long seq, ActivityAttempt attempt);

	/**
	 * @return the attempt that ran for the activity, or {@code null}
	 */
	ActivityAttempt attemptEnded(long seq);

	/** The attempt running for the activity, or {@code null}. */
	ActivityAttempt runningAttempt(long seq);

	/** The activities with an attempt running. */
	List<Long> runningActivities();

	/**
	 * The activity has a row now (a failed attempt, a heartbeat, or found at a takeover).
	 */
	void activityStored(long seq);

	/** A commit deleted the activity's row. */
	void activityRowDeleted(long seq);

	/** The activity's next attempt waits for its retry time. */
	void retryWaits(long seq);

	/**
	 * @return whether the activity's retry still waited (a cancel had not taken it out)
	 */
	boolean takeWaitingRetry(long seq);

	/** Takes out the waiting retries of activities the run no longer awaits. */
	void keepWaitingRetries(LongPredicate awaited);

	/**
	 * Holds an attempt's launch while the run is paused, to run when a task finds it
	 * unpaused.
	 * @return whether it was held (else the caller launches it now)
	 */
	boolean holdWhilePaused(Runnable launch);

	/**
	 * Holds an attempt's launch because the store says the run is paused, and has a task
	 * read the run: when it was unpaused meanwhile, that task launches it.
	 */
	void heldByPause(Runnable launch);

}
