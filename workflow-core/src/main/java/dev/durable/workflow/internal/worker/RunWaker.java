package dev.durable.workflow.internal.worker;

import java.util.UUID;

/**
 * Tells a run that input arrived for it: a direct hand-off when this node owns it, a
 * notification to its owner (or to any node when it has none) otherwise. Called after the
 * commit that stored the input.
 */
@FunctionalInterface
public interface RunWaker {

	/**
	 * @param runId the run
	 * @param owner its owner node as the commit saw it, or {@code null} when it had none
	 */
	void wake(UUID runId, UUID owner);

}
