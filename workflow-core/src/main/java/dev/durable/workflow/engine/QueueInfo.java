package dev.durable.workflow.engine;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What a queue holds right now, read from the database ({@link WorkflowEngine#queues()}).
 *
 * @param definition the queue's name and limits, as stored by the last node that declared
 * it (an activity task queue no node declared as a queue shows with no limits)
 * @param waitingWorkflows runs started into the queue and not yet admitted
 * @param runningWorkflows admitted runs still open
 * @param waitingActivities attempts of activities on the task queue of that name that are
 * due and not yet claimed
 * @param runningActivities attempts claimed by a node (or awaiting asynchronous
 * completion)
 * @param oldestWaitingSince when the item waiting longest became due, or {@code null}
 * when none waits
 */
public record QueueInfo(QueueDefinition definition, long waitingWorkflows, long runningWorkflows,
		long waitingActivities, long runningActivities, @Nullable Instant oldestWaitingSince) {

	/** Items waiting, workflows and activities. */
	public long depth() {
		return this.waitingWorkflows + this.waitingActivities;
	}

	/** Items running, workflows and activities. */
	public long running() {
		return this.runningWorkflows + this.runningActivities;
	}

}
