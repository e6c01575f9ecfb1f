package dev.durable.workflow.web;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.QueueInfo;

/**
 * A queue and what it holds, as {@code GET {base-path}/queues}, the {@code workflows}
 * actuator endpoint and the dashboard show it: {@link QueueInfo} with its totals and the
 * limits flattened into JSON-friendly values.
 *
 * @param name the queue's name
 * @param limits its limits (an activity task queue that no node declared as a queue has
 * none)
 * @param waitingWorkflows runs started into the queue and not yet admitted
 * @param runningWorkflows admitted runs still open
 * @param waitingActivities due attempts of activities on the task queue of that name, not
 * yet claimed
 * @param runningActivities claimed attempts, and those awaiting asynchronous completion
 * @param depth items waiting, workflows and activities
 * @param running items running, workflows and activities
 * @param oldestWaitingSince when the item waiting longest became due, or {@code null}
 * when none waits
 */
public record QueueSummary(String name, Limits limits, long waitingWorkflows, long runningWorkflows,
		long waitingActivities, long runningActivities, long depth, long running,
		@Nullable Instant oldestWaitingSince) {

	/**
	 * The limits of a queue; 0 means no limit.
	 *
	 * @param concurrency items running at once across the cluster
	 * @param perNodeConcurrency items running at once on one node
	 * @param rateLimit items that may start per rate period, cluster-wide
	 * @param ratePeriod the window of the rate limit (ISO-8601, so that every JSON mapper
	 * writes it alike)
	 * @param partitionConcurrency items of one partition key running at once
	 */
	public record Limits(int concurrency, int perNodeConcurrency, int rateLimit, String ratePeriod,
			int partitionConcurrency) {
	}

	/** The summary of what the engine read. */
	public static QueueSummary of(QueueInfo info) {
		QueueDefinition definition = info.definition();
		return new QueueSummary(definition.name(),
				new Limits(definition.concurrency(), definition.perNodeConcurrency(), definition.rateLimit(),
						definition.ratePeriod().toString(), definition.partitionConcurrency()),
				info.waitingWorkflows(), info.runningWorkflows(), info.waitingActivities(), info.runningActivities(),
				info.depth(), info.running(), info.oldestWaitingSince());
	}

	/** The summaries of what the engine read, in its order. */
	public static List<QueueSummary> of(List<QueueInfo> queues) {
		return queues.stream().map(QueueSummary::of).toList();
	}

}
