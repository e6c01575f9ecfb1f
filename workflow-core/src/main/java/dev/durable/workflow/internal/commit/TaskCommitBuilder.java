package dev.durable.workflow.internal.commit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.ActivityCancelRequested;
import dev.durable.workflow.internal.history.Event.ActivityCompleted;
import dev.durable.workflow.internal.history.Event.ActivityFailed;
import dev.durable.workflow.internal.history.Event.ActivityScheduled;
import dev.durable.workflow.internal.history.Event.CancelExternal;
import dev.durable.workflow.internal.history.Event.ContinuedAsNew;
import dev.durable.workflow.internal.history.Event.SignalExternal;
import dev.durable.workflow.internal.history.Event.StartChild;
import dev.durable.workflow.internal.history.Event.TimerCanceled;
import dev.durable.workflow.internal.history.Event.TimerFired;
import dev.durable.workflow.internal.history.Event.TimerStarted;
import dev.durable.workflow.internal.history.Event.WorkflowCanceled;
import dev.durable.workflow.internal.history.Event.WorkflowCompleted;
import dev.durable.workflow.internal.history.Event.WorkflowFailed;
import dev.durable.workflow.internal.history.Event.WorkflowStarted;
import dev.durable.workflow.internal.history.EventCodec;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.runtime.TaskResult;
import dev.durable.workflow.internal.runtime.VisibilityStates;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.InboxItem;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.RunChain;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.store.StoredActivity;
import dev.durable.workflow.internal.store.VisibilityRepository;
import dev.durable.workflow.internal.store.BuildAssignment;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.internal.support.UuidV7;
import dev.durable.workflow.internal.versioning.BuildRouter;

/**
 * Turns what a workflow task did into its commit: inbox items into inputs, commands into
 * rows (timers, activities, child runs, messages to other runs), and a closing command
 * into the run's outcome and the run that follows it (continue-as-new, retry, cron).
 */
public final class TaskCommitBuilder {

	private static final Logger log = LoggerFactory.getLogger(TaskCommitBuilder.class);

	private final UUID node;

	private final WorkflowRegistry workflows;

	private final RunRepository runs;

	private final java.util.Set<String> taskQueues;

	private final BuildRouter routing;

	public TaskCommitBuilder(UUID node, WorkflowRegistry workflows, RunRepository runs,
			java.util.Set<String> taskQueues, BuildRouter routing) {
		this.routing = routing;
		this.taskQueues = taskQueues;
		this.node = node;
		this.workflows = workflows;
		this.runs = runs;
	}

	/**
	 * The reason of a TERMINATE item (a parent closed with policy TERMINATE), or
	 * {@code null}.
	 */
	public static String terminateReason(List<InboxItem> inbox) {
		return inbox.stream()
			.filter((item) -> item.kind() == InboxKind.TERMINATE)
			.findFirst()
			.map((item) -> new String(item.payload(), java.nio.charset.StandardCharsets.UTF_8))
			.orElse(null);
	}

	/**
	 * The inputs of a run's first task: the memo and search attributes it starts with
	 * (when it has any; before the start, so that {@code @WorkflowInit} sees them), then
	 * its start.
	 */
	public List<Event> startEvents(RunRow row) {
		VisibilityRepository.Start start = this.runs.visibility().start(row.runId());
		Event attributes = VisibilityStates.startEvent(start.attributes().memo(),
				start.attributes().searchAttributes());
		WorkflowStarted started = Event.workflowStarted(row.workflowType(), start.input());
		Instant due = row.nextWakeAt();
		if (row.taskAttempt() == 0 && due != null && due.isAfter(row.createdAt())) {
			// the first task was due later than the run was created (start delay, retry
			// or cron backoff,
			// a wait in a queue): recorded as the event's time due, read as
			// firstWorkflowTaskBackoff
			started = started.dueAt(due);
		}
		return (attributes != null) ? List.of(attributes, started) : List.of(started);
	}

	/**
	 * The inputs a task offers the run, in order: its start (first task), outcomes handed
	 * over in memory, timers now due, then the inbox.
	 */
	public List<Event> candidates(RunRow row, WorkflowRunner runner, List<Event> handedOver, List<InboxItem> inbox,
			Instant now) {
		List<Event> candidates = new ArrayList<>();
		if (row.historySeq() == 0 && runner.historySeq() == 0) {
			candidates.addAll(startEvents(row));
		}
		candidates.addAll(handedOver);
		runner.pendingTimers().forEach((seq, fireAt) -> {
			if (!fireAt.isAfter(now)) {
				candidates.add(Event.timerFired(seq));
			}
		});
		for (InboxItem item : inbox) {
			if (item.kind() != InboxKind.ACTIVITY_RETRY) {
				candidates.add(toEvent(item));
			}
		}
		return candidates;
	}

	/**
	 * The input an inbox item offers the run: one case per kind, so a new kind must say
	 * what it becomes. A TERMINATE item is read first ({@link #terminateReason}) and is
	 * never offered.
	 */
	static Event toEvent(InboxItem item) {
		return switch (item.kind()) {
			case SIGNAL -> Event.signalReceived(item.name(), item.payload());
			case UPDATE -> Event.updateAccepted(item.messageId(), item.name(), item.payload());
			case CANCEL -> Event.cancelRequested((item.payload() != null)
					? new String(item.payload(), java.nio.charset.StandardCharsets.UTF_8) : null);
			case TERMINATE -> throw new IllegalStateException("A TERMINATE item terminates the run before any input");
			case CHILD_STARTED -> Event.childStarted(Long.parseLong(item.name()), item.messageId());
			case CHILD_START_FAILED -> Event.childStartFailed(Long.parseLong(item.name()), failure(item));
			case CHILD_FAILED -> Event.childClosed(Long.parseLong(item.name()), null, failure(item));
			case CHILD_COMPLETED -> Event.childClosed(Long.parseLong(item.name()), item.payload(), null);
			case EXTERNAL_DELIVERED -> Event.externalDelivered(Long.parseLong(item.name()), failure(item));
			case ACTIVITY_COMPLETED -> Event.activityCompleted(Long.parseLong(item.name()), item.payload());
			case ACTIVITY_FAILED -> Event.activityFailed(Long.parseLong(item.name()), failure(item));
			case ACTIVITY_RETRY ->
				throw new IllegalStateException("An ACTIVITY_RETRY item goes to the activity executor");
			// an answer handed over by a reset, stored as the event itself
			case EVENT -> EventCodec.read(item.payload()).get(0);
		};
	}

	private static FailureInfo failure(InboxItem item) {
		return InternalJson.read(item.payload(), FailureInfo.class);
	}

	public TaskCommit build(OwnedRun slot, RunRow row, WorkflowRunner runner, TaskResult result, List<InboxItem> inbox,
			Instant now) {
		long epoch = slot.epoch();
		RunChain chain = slot.chain();
		List<Long> removedTimers = new ArrayList<>();
		List<Long> removedActivities = new ArrayList<>();
		Map<Long, Instant> newTimers = new LinkedHashMap<>();
		Map<Long, StoredActivity> newActivities = new LinkedHashMap<>();
		Map<Long, StoredActivity> queuedActivities = new LinkedHashMap<>();
		List<TaskCommit.ChildStart> childStarts = new ArrayList<>();
		List<TaskCommit.External> externals = new ArrayList<>();
		for (Event event : result.events()) {
			switch (event) {
				case TimerFired fired -> removeTimer(fired.seq(), newTimers, removedTimers);
				case TimerCanceled canceled -> removeTimer(canceled.seq(), newTimers, removedTimers);
				case ActivityCompleted completed ->
					removeActivity(completed.seq(), slot, newActivities, queuedActivities, removedActivities);
				case ActivityFailed failed ->
					removeActivity(failed.seq(), slot, newActivities, queuedActivities, removedActivities);
				case ActivityCancelRequested canceled ->
					removeActivity(canceled.seq(), slot, newActivities, queuedActivities, removedActivities);
				case TimerStarted started -> newTimers.put(started.seq(), started.fireAt());
				case SignalExternal signal -> externals.add(new TaskCommit.External(signal.seq(), signal.workflowId(),
						(signal.runId() != null) ? UUID.fromString(signal.runId()) : null, InboxKind.SIGNAL,
						signal.signalName(), signal.payload()));
				case CancelExternal cancel -> externals.add(new TaskCommit.External(cancel.seq(), cancel.workflowId(),
						(cancel.runId() != null) ? UUID.fromString(cancel.runId()) : null, InboxKind.CANCEL, null,
						("canceled by workflow " + row.workflowId())
							.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
				case StartChild start -> childStarts
					.add(new TaskCommit.ChildStart(start.seq(), childRun(row, start, RunChain.headers(chain), now),
							start.policy(), (start.options() != null && start.options().idReusePolicy() != null)
									? start.options().idReusePolicy().name() : null));
				case ActivityScheduled scheduled ->
					(scheduled.options().onTaskQueue() ? queuedActivities : newActivities).put(scheduled.seq(),
							new StoredActivity(row.runId(), scheduled.seq(), scheduled.activityType(), scheduled.args(),
									scheduled.options(), 1, runner.now(), runner.now(), null, null));
				default -> {
				}
			}
		}
		Event close = result.closeEvent();
		NewRun continuedAs = null;
		Map<String, List<byte[]>> carried = Map.of();
		RunStatus closeStatus = null;
		byte[] resultPayload = null;
		byte[] failure = null;
		if (close != null) {
			closeStatus = switch (close.type()) {
				case WORKFLOW_COMPLETED -> RunStatus.COMPLETED;
				case WORKFLOW_CANCELED -> RunStatus.CANCELED;
				case CONTINUED_AS_NEW -> RunStatus.CONTINUED_AS_NEW;
				default -> RunStatus.FAILED;
			};
			FailureInfo closeFailure = switch (close) {
				case WorkflowFailed failed -> failed.failure();
				case WorkflowCanceled canceled -> canceled.failure();
				default -> null;
			};
			resultPayload = (close instanceof WorkflowCompleted completed) ? completed.result() : null;
			if (close instanceof ContinuedAsNew continued) {
				// the execution deadline spans the chain; the run timeout starts again
				Instant runDeadline = (row.runDeadline() != null)
						? now.plus(java.time.Duration.between(row.createdAt(), row.runDeadline())) : null;
				continuedAs = new NewRun(UuidV7.next(now), row.namespace(), row.workflowId(), row.workflowType(),
						row.taskQueue(), this.node, continued.input(), null, now, null, runDeadline,
						row.executionDeadline(), chain, 1)
					// the logical execution goes on: it keeps its current memo and search
					// attributes
					.withAttributes(runner.visibility().memo(), runner.visibility().searchAttributes())
					.withBuild(this.routing.continued(row.workflowType(), row.workflowId()));
				// the closed run's result names the run that follows it
				resultPayload = continuedAs.runId().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
				carried = runner.unreceivedSignals();
			}
			else {
				continuedAs = nextInChain(slot, row, closeStatus, closeFailure, now);
				if (continuedAs != null) {
					// a retry or cron run starts over, with what this run started with
					continuedAs = continuedAs.withAttributes(runner.visibility().startMemo(),
							runner.visibility().startSearchAttributes());
				}
			}
			failure = (closeFailure != null) ? InternalJson.write(closeFailure) : null;
		}
		if (close != null && result.unfinishedHandlers() > 0) {
			log.warn(
					"Run {} closed ({}) with {} signal or update handler(s) still running; wait for"
							+ " Workflows.allHandlersFinished() before returning",
					row.runId(), closeStatus, result.unfinishedHandlers());
		}
		List<Event> events = result.events();
		return new TaskCommit(
				new TaskCommit.Fence(row.runId(), row.namespace(), row.workflowId(), this.node, epoch, row.inboxSeq(),
						row.resultAwaited()),
				new TaskCommit.HistoryRow(row.historySeq(), runner.now(),
						events.isEmpty() ? null : EventCodec.write(events), inbox.stream().map(InboxItem::id).toList()),
				new TaskCommit.Timers(removedTimers, newTimers, earliest(runner.nextTimer(), row.deadline())),
				new TaskCommit.Activities(new ArrayList<>(newActivities.values()),
						new ArrayList<>(queuedActivities.values()), removedActivities,
						runner.hasPendingInlineActivities()),
				(closeStatus != null) ? new TaskCommit.Close(closeStatus, resultPayload, failure, continuedAs, carried)
						: TaskCommit.Close.OPEN,
				new TaskCommit.Relatives(childStarts, externals,
						row.parentRunId() != null || runner.hasStartedChildren()),
				new TaskCommit.Outputs(result.updates(), result.unfinishedHandlers(),
						VisibilityStates.changes(result.commands()) ? new TaskCommit.Attributes(
								runner.visibility().memo(), runner.visibility().searchAttributes()) : null,
						events.stream().filter((e) -> e.type().isOutput()).toList(),
						events.stream().filter((e) -> e.type().isTopicWait()).toList()));
	}

	private static void removeTimer(long seq, Map<Long, Instant> newTimers, List<Long> removedTimers) {
		if (newTimers.remove(seq) == null) {
			removedTimers.add(seq);
		}
	}

	/**
	 * Only an activity with a row (a failed attempt, a heartbeat) has one to delete.
	 */
	private static void removeActivity(long seq, OwnedRun slot, Map<Long, StoredActivity> newActivities,
			Map<Long, StoredActivity> queuedActivities, List<Long> removedActivities) {
		if (newActivities.remove(seq) == null && queuedActivities.remove(seq) == null && slot.hasStoredActivity(seq)) {
			removedActivities.add(seq);
		}
	}

	/**
	 * The child run a START_CHILD command asks for, with its own queue, timeouts and
	 * retry policy.
	 */
	private NewRun childRun(RunRow row, StartChild start, Map<String, String> headers, Instant now) {
		ChildOptions options = (start.options() != null) ? start.options() : ChildOptions.DEFAULT;
		String queue = (options.taskQueue() != null) ? options.taskQueue() : row.taskQueue();
		BuildAssignment build = this.routing.child(row.workflowType(), start.workflowType(), start.workflowId());
		boolean local = this.workflows.find(start.workflowType()) != null && this.taskQueues.contains(queue)
				&& this.routing.here(build);
		// a child carries its parent's headers (its trace, its tenant), not its cron or
		// timeouts
		RunChain chain = new RunChain(options.retryPolicy(), null, options.taskTimeout(), headers);
		return new NewRun(UuidV7.next(now), row.namespace(), start.workflowId(), start.workflowType(), queue,
				local ? this.node : null, start.input(), null, now, null,
				(options.runTimeout() != null) ? now.plus(options.runTimeout()) : null,
				(options.executionTimeout() != null) ? now.plus(options.executionTimeout()) : null,
				chain.isEmpty() ? null : chain, 1)
			.withBuild(build);
	}

	/** The retry of a failed run (workflow retry policy) or the next cron run, if any. */
	private NewRun nextInChain(OwnedRun slot, RunRow row, RunStatus status, FailureInfo failure, Instant now) {
		RunChain chain = slot.chain();
		if (chain == null || chain.isEmpty()) {
			return null;
		}
		RunChain.Next next = chain.next(status, failure, row.attempt(), now);
		if (next == null) {
			return null;
		}
		return new NewRun(UuidV7.next(now), row.namespace(), row.workflowId(), row.workflowType(), row.taskQueue(),
				this.node, (slot.input() != null) ? slot.input() : this.runs.input(row.runId()), null, now,
				next.startAt(), null, row.executionDeadline(), chain, next.attempt())
			.withBuild(this.routing.continued(row.workflowType(), row.workflowId()));
	}

	public static Instant earliest(Instant a, Instant b) {
		if (a == null) {
			return b;
		}
		return (b == null || a.isBefore(b)) ? a : b;
	}

}
