package dev.durable.workflow.internal.runtime;

/**
 * How many attempts of a run's activity were made when the workflow cancels it, the
 * attempt running then included: the count of the {@code ActivityFailure} the workflow
 * sees, recorded with the cancel so that a replay sees the same count without asking
 * again.
 */
@FunctionalInterface
public interface ActivityAttempts {

	/**
	 * For runners that only replay (queries, replay checks): the recorded cancel holds
	 * the count.
	 */
	ActivityAttempts NONE = (seq) -> 0;

	/**
	 * @param seq the activity's sequence number in its run
	 * @return the attempts made, the running one included
	 */
	int made(long seq);

}
