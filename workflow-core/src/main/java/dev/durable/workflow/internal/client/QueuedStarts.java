package dev.durable.workflow.internal.client;

import java.util.List;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.internal.queue.QueueRepository;
import dev.durable.workflow.internal.queue.QueueWaker;
import dev.durable.workflow.internal.queue.StartExcess;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.RunRepository;

/**
 * Starts into a flow-control queue ({@link StartOptions#queue()}): checked before
 * anything is written, inserted as an open run that waits in its queue (visible, holding
 * its workflow id, deduplicated by request id like any start, but runnable only once
 * admitted) together with its queue row, and announced to the dispatchers after the
 * commit. Such a run never starts eagerly.
 */
final class QueuedStarts {

	/** The longest partition key. */
	private static final int MAX_PARTITION_KEY = 255;

	private final QueueRepository queues;

	private final QueueWaker waker;

	private final StartExcess excess;

	QueuedStarts(QueueRepository queues, QueueWaker waker) {
		this.queues = queues;
		this.waker = waker;
		this.excess = queues.excess();
	}

	/**
	 * Fails on queue options that make no sense, and on a queue no node declared (the run
	 * would wait for ever).
	 * @throws IllegalArgumentException then, with nothing written
	 */
	void check(String namespace, StartOptions options) {
		String partitionKey = options.partitionKey();
		if (options.queue() == null) {
			if (partitionKey != null || options.priority() != 0) {
				throw new IllegalArgumentException("A priority or partition key needs a queue: set StartOptions.queue");
			}
			return;
		}
		if (partitionKey != null && (partitionKey.isBlank() || partitionKey.length() > MAX_PARTITION_KEY)) {
			throw new IllegalArgumentException("A partition key is 1-" + MAX_PARTITION_KEY
					+ " characters, not blank (got '" + partitionKey + "')");
		}
		this.queues.checkDeclared(namespace, options.queue());
	}

	/**
	 * Inserts the run, waiting in its queue when the start names one, unless the queue's
	 * excess strategy refuses it (then nothing is written).
	 * @param skipsDelay whether a message sent with the start makes it due now despite
	 * its start delay
	 * @return the runs of its partition key asked to cancel to make room for it, to wake
	 * after the commit
	 * @throws dev.durable.workflow.client.StartDroppedException when the queue drops it
	 * @throws dev.durable.workflow.client.StartCanceledException when it gives way
	 */
	List<StartExcess.CancelRequested> insert(RunRepository runs, NewRun run, StartOptions options, boolean skipsDelay) {
		String queue = options.queue();
		if (queue == null) {
			runs.insert(run);
			return List.of();
		}
		QueueDefinition definition = this.queues.definition(run.namespace(), queue);
		List<StartExcess.CancelRequested> canceled = (definition == null) ? List.of()
				: this.excess.decide(run.namespace(), definition, run.workflowId(), options.partitionKey(),
						run.wakeAt() == null || skipsDelay, run.createdAt(), runs);
		runs.insert(run, true);
		// a delayed start (or a cron workflow's first run) joins the queue when it comes
		// due
		this.queues.enqueue(run, queue, options.priority(), options.partitionKey(),
				(run.wakeAt() != null && !skipsDelay) ? run.wakeAt() : run.createdAt());
		return canceled;
	}

	/**
	 * After the commit of a start that created the run: tells the dispatchers when it
	 * waits in a queue.
	 * @return whether it does (nothing else is to be woken for it)
	 */
	boolean created(NewRun run, StartOptions options) {
		if (options.queue() == null) {
			return false;
		}
		this.waker.enqueued(options.queue(), run.workflowType(), run.taskQueue());
		return true;
	}

}
