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
import dev.durable.workflow.internal.store.StoredActivity;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * Everything one workflow task writes, committed in one transaction or not at all.
 *
 * @param runId run id
 * @param node the committing node
 * @param epoch the epoch the node holds
 * @param historySeq the history sequence the task started from
 * @param seenInboxSeq the inbox counter the task read before taking its inbox items
 * @param time the task time
 * @param events the task's history row
 * @param consumedInbox inbox ids consumed
 * @param removedTimers timers fired or canceled
 * @param removedActivities rows of activities completed, failed or canceled (only
 * activities that have one: see
 * {@link dev.durable.workflow.internal.store.ActivityRepository})
 * @param newTimers timers started, with fire times
 * @param newActivities activities scheduled, started inline after the commit; no row is
 * written for them (the history row records them; a failed attempt or a heartbeat writes
 * one)
 * @param queuedActivities activities scheduled on a task queue: the commit writes their
 * rows, which a node serving the queue claims
 * @param nextWakeAt the earliest pending timer, or {@code null}
 * @param hasActivities whether inline activities remain pending (they need the run's
 * owner; a task-queue activity needs none)
 * @param closeStatus the status when the task closes the run, else {@code null}
 * @param result the encoded result when completed
 * @param failure the failure JSON when failed or canceled
 * @param namespace the run's namespace (update outcomes are keyed by workflow id)
 * @param workflowId the run's workflow id
 * @param updates update outcomes decided by the task
 * @param unfinishedHandlers handlers still running when the task closed the run
 * @param continuedAs the next run when the task continued the run as new, else
 * {@code null}
 * @param carriedSignals signals not yet received that move to the next run, by name
 * @param childStarts child runs the task starts
 * @param externals signals and cancel requests for other workflows
 * @param attributes the run's memo and search attributes after the task's upserts, or
 * {@code null} when the task upserted nothing
 * @param tellsRelatives whether a close must tell a parent or children: the run has a
 * parent or started a child. A close that tells no one is one plain statement shape,
 * written in a batch with other commits.
 * @param outputs the events set and stream values written and streams closed by the task
 * (EVENT_SET, STREAM_WRITE and STREAM_CLOSED commands), in the order issued
 * @param resultAwaited the run row's flag as the task read it: a node that does not hold
 * the run waits for its outcome. A close requires the flag unchanged (a waiter that
 * marked the run since fails the compare-and-set; the task then makes the same commit
 * again with the flag set, see {@link #awaited}), and one made with it set notifies the
 * nodes after its commit.
 */
public record TaskCommit(UUID runId, UUID node, long epoch, int historySeq, long seenInboxSeq, Instant time,
		byte[] events, List<Long> consumedInbox, List<Long> removedTimers, List<Long> removedActivities,
		Map<Long, Instant> newTimers, List<StoredActivity> newActivities, List<StoredActivity> queuedActivities,
		Instant nextWakeAt, boolean hasActivities, String closeStatus, byte[] result, byte[] failure, String namespace,
		String workflowId, List<TaskResult.UpdateOutcome> updates, int unfinishedHandlers, NewRun continuedAs,
		Map<String, List<byte[]>> carriedSignals, List<ChildStart> childStarts, List<External> externals,
		Attributes attributes, boolean tellsRelatives, List<Event> outputs, boolean resultAwaited) {

	/** A commit without outputs, of a run no other node waits for. */
	public TaskCommit(UUID runId, UUID node, long epoch, int historySeq, long seenInboxSeq, Instant time, byte[] events,
			List<Long> consumedInbox, List<Long> removedTimers, List<Long> removedActivities,
			Map<Long, Instant> newTimers, List<StoredActivity> newActivities, List<StoredActivity> queuedActivities,
			Instant nextWakeAt, boolean hasActivities, String closeStatus, byte[] result, byte[] failure,
			String namespace, String workflowId, List<TaskResult.UpdateOutcome> updates, int unfinishedHandlers,
			NewRun continuedAs, Map<String, List<byte[]>> carriedSignals, List<ChildStart> childStarts,
			List<External> externals, Attributes attributes, boolean tellsRelatives) {
		this(runId, node, epoch, historySeq, seenInboxSeq, time, events, consumedInbox, removedTimers,
				removedActivities, newTimers, newActivities, queuedActivities, nextWakeAt, hasActivities, closeStatus,
				result, failure, namespace, workflowId, updates, unfinishedHandlers, continuedAs, carriedSignals,
				childStarts, externals, attributes, tellsRelatives, List.of(), false);
	}

	/** The same commit, made for a run a node waits for (see {@code resultAwaited}). */
	public TaskCommit awaited() {
		return new TaskCommit(this.runId, this.node, this.epoch, this.historySeq, this.seenInboxSeq, this.time,
				this.events, this.consumedInbox, this.removedTimers, this.removedActivities, this.newTimers,
				this.newActivities, this.queuedActivities, this.nextWakeAt, this.hasActivities, this.closeStatus,
				this.result, this.failure, this.namespace, this.workflowId, this.updates, this.unfinishedHandlers,
				this.continuedAs, this.carriedSignals, this.childStarts, this.externals, this.attributes,
				this.tellsRelatives, this.outputs, true);
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
		return new RunRepository.Outcome(this.closeStatus, this.result,
				(this.failure != null) ? InternalJson.read(this.failure, FailureInfo.class) : null,
				(this.continuedAs != null) ? this.continuedAs.runId() : null);
	}

	public boolean closes() {
		return this.closeStatus != null;
	}

	/**
	 * Whether the task has events to record (a task that only rejected updates has none).
	 */
	public boolean recordsHistory() {
		return this.events != null;
	}

}
