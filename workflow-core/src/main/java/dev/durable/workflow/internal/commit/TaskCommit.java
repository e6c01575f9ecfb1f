package dev.durable.workflow.internal.commit;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.runtime.TaskResult;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.store.StoredActivity;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * Everything one workflow task writes, committed in one transaction or not at all. The
 * commit is made of named parts: the fence it is made under, the history row it appends,
 * and what it does to timers, activities, the run's close, its relatives and its outputs.
 *
 * @param fence the run and the holder the commit is fenced to
 * @param history the history row and the inbox items it consumes
 * @param timers timers removed and started
 * @param activities activities scheduled, queued and removed
 * @param close how the task closes the run, {@link Close#OPEN} when it does not
 * @param relatives child starts and messages for other workflows
 * @param outputs update outcomes, handler count, attributes and output events
 */
public record TaskCommit(Fence fence, HistoryRow history, Timers timers, Activities activities, Close close,
		Relatives relatives, Outputs outputs) {

	/**
	 * The same commit, made for a run a node waits for (see {@link Fence#resultAwaited}).
	 */
	public TaskCommit awaited() {
		Fence f = this.fence;
		return new TaskCommit(
				new Fence(f.runId(), f.namespace(), f.workflowId(), f.node(), f.epoch(), f.seenInboxSeq(), true),
				this.history, this.timers, this.activities, this.close, this.relatives, this.outputs);
	}

	/**
	 * The run a commit is for and the holder it is fenced to: the commit applies only
	 * while the run row still holds this node and epoch (the compare-and-set).
	 *
	 * @param runId run id
	 * @param namespace the run's namespace (update outcomes are keyed by workflow id)
	 * @param workflowId the run's workflow id
	 * @param node the committing node
	 * @param epoch the epoch the node holds
	 * @param seenInboxSeq the inbox counter the task read before taking its inbox items
	 * @param resultAwaited the run row's flag as the task read it: a node that does not
	 * hold the run waits for its outcome. A close requires the flag unchanged (a waiter
	 * that marked the run since fails the compare-and-set; the task then makes the same
	 * commit again with the flag set, see {@link TaskCommit#awaited}), and one made with
	 * it set notifies the nodes after its commit.
	 */
	public record Fence(UUID runId, String namespace, String workflowId, UUID node, long epoch, long seenInboxSeq,
			boolean resultAwaited) {
	}

	/**
	 * The history row a task appends.
	 *
	 * @param historySeq the history sequence the task started from
	 * @param time the task time
	 * @param events the task's encoded history row, or {@code null} when the task has no
	 * events (a task that only rejected updates)
	 * @param consumedInbox inbox ids consumed
	 */
	public record HistoryRow(int historySeq, Instant time, byte[] events, List<Long> consumedInbox) {
	}

	/**
	 * The task's timers.
	 *
	 * @param removed timers fired or canceled
	 * @param started timers started, with fire times
	 * @param nextWakeAt the earliest pending timer, or {@code null}
	 */
	public record Timers(List<Long> removed, Map<Long, Instant> started, Instant nextWakeAt) {
	}

	/**
	 * The task's activities.
	 *
	 * @param inline activities scheduled, started inline after the commit; no row is
	 * written for them (the history row records them; a failed attempt or a heartbeat
	 * writes one)
	 * @param queued activities scheduled on a task queue: the commit writes their rows,
	 * which a node serving the queue claims
	 * @param removed rows of activities completed, failed or canceled (only activities
	 * that have one: see {@link dev.durable.workflow.internal.store.ActivityRepository})
	 * @param inlinePending whether inline activities remain pending (they need the run's
	 * owner; a task-queue activity needs none)
	 */
	public record Activities(List<StoredActivity> inline, List<StoredActivity> queued, List<Long> removed,
			boolean inlinePending) {
	}

	/**
	 * How a task closes its run; {@link #OPEN} when it does not.
	 *
	 * @param status the status the run closes with, else {@code null}
	 * @param result the encoded result when completed
	 * @param failure the failure JSON when failed or canceled
	 * @param continuedAs the next run when the task continued the run as new (or a retry
	 * or cron run follows), else {@code null}
	 * @param carriedSignals signals not yet received that move to the next run, by name
	 */
	public record Close(RunStatus status, byte[] result, byte[] failure, NewRun continuedAs,
			Map<String, List<byte[]>> carriedSignals) {

		/** The close part of a task that leaves the run open. */
		public static final Close OPEN = new Close(null, null, null, null, Map.of());

	}

	/**
	 * What the task does to other runs.
	 *
	 * @param childStarts child runs the task starts
	 * @param externals signals and cancel requests for other workflows
	 * @param tellsRelatives whether a close must tell a parent or children: the run has a
	 * parent or started a child. A close that tells no one is one plain statement shape,
	 * written in a batch with other commits.
	 */
	public record Relatives(List<ChildStart> childStarts, List<External> externals, boolean tellsRelatives) {
	}

	/**
	 * What the task makes visible outside its history.
	 *
	 * @param updates update outcomes decided by the task
	 * @param unfinishedHandlers signal or update handlers still running after the task
	 * @param attributes the run's memo and search attributes after the task's upserts, or
	 * {@code null} when the task upserted nothing
	 * @param events the events set and stream values written and streams closed by the
	 * task (EVENT_SET, STREAM_WRITE and STREAM_CLOSED commands), in the order issued
	 * @param topicWaits the waits for topic events the task began or ended
	 * (TOPIC_WAIT_STARTED, TOPIC_WAIT_ENDED), in the order issued
	 */
	public record Outputs(List<TaskResult.UpdateOutcome> updates, int unfinishedHandlers, Attributes attributes,
			List<Event> events, List<Event> topicWaits) {
	}

	/**
	 * A run's memo and search attributes, in stored form, written to its visibility row.
	 *
	 * @param memo the memo
	 * @param searchAttributes the search attributes
	 */
	public record Attributes(Map<String, Object> memo, Map<String, Object> searchAttributes) {
	}

	/**
	 * A signal or cancel request for another workflow.
	 *
	 * @param seq the command's sequence number
	 * @param workflowId the target workflow id
	 * @param runId the target run, or {@code null} for the latest open run
	 * @param kind SIGNAL or CANCEL
	 * @param name the signal name
	 * @param payload the payload
	 */
	public record External(long seq, String workflowId, UUID runId, InboxKind kind, String name, byte[] payload) {
	}

	/**
	 * A child run to start.
	 *
	 * @param seq the parent's command sequence number
	 * @param run the child run (owned by the committing node when it serves the type)
	 * @param parentClosePolicy TERMINATE, REQUEST_CANCEL or ABANDON
	 * @param idReusePolicy ALLOW_DUPLICATE_FAILED_ONLY or REJECT_DUPLICATE, else
	 * {@code null}
	 */
	public record ChildStart(long seq, NewRun run, String parentClosePolicy, String idReusePolicy) {
	}

	/**
	 * What a successful commit did to other runs.
	 *
	 * @param wake runs that got inbox items
	 * @param startedChildren child runs inserted
	 */
	public record Effects(List<UUID> wake, List<NewRun> startedChildren) {
	}

	/**
	 * The outcome a closing commit records, as a waiter reads it; {@code null} when it
	 * does not close.
	 */
	public RunRepository.Outcome outcome() {
		if (!closes()) {
			return null;
		}
		return new RunRepository.Outcome(this.close.status(), this.close.result(),
				(this.close.failure() != null) ? InternalJson.read(this.close.failure(), FailureInfo.class) : null,
				(this.close.continuedAs() != null) ? this.close.continuedAs().runId() : null);
	}

	public boolean closes() {
		return this.close.status() != null;
	}

	/**
	 * Whether the task has events to record (a task that only rejected updates has none).
	 */
	public boolean recordsHistory() {
		return this.history.events() != null;
	}

}
