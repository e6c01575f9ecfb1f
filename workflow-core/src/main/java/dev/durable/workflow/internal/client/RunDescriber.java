package dev.durable.workflow.internal.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.ActivityAttemptOptions;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.PendingActivity;
import dev.durable.workflow.client.PendingActivityState;
import dev.durable.workflow.client.RunBuild;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.ActivityCancelRequested;
import dev.durable.workflow.internal.history.Event.ActivityCompleted;
import dev.durable.workflow.internal.history.Event.ActivityFailed;
import dev.durable.workflow.internal.history.Event.ActivityScheduled;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.store.ActivityRepository;
import dev.durable.workflow.internal.store.BuildRepository;
import dev.durable.workflow.internal.store.RunChain;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.support.ReadablePayloads;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.TaskRepository;
import dev.durable.workflow.internal.store.VisibilityRepository;
import dev.durable.workflow.internal.support.Attributes;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.payload.PayloadConverter;

/** Describe and history of a run, read from its rows. */
public final class RunDescriber {

	private final RunRepository runs;

	private final TaskRepository tasks;

	private final ActivityRepository activities;

	private final PayloadConverter converter;

	private final Clock clock;

	/**
	 * @param clock the engine clock, which activities' retry times are on
	 */
	private final BuildRepository builds;

	private final long deadAfterMillis;

	/**
	 * @param deadAfter how long after its last heartbeat a node counts as gone (whether a
	 * pinned run's build has a live node)
	 */
	public RunDescriber(RunRepository runs, TaskRepository tasks, ActivityRepository activities,
			PayloadConverter converter, Clock clock, BuildRepository builds, Duration deadAfter) {
		this.builds = builds;
		this.deadAfterMillis = deadAfter.toMillis();
		this.runs = runs;
		this.tasks = tasks;
		this.activities = activities;
		this.converter = converter;
		this.clock = clock;
	}

	/**
	 * (a run waiting in a flow-control queue has no failed attempts: its negative marker
	 * shows as 0)
	 */
	WorkflowDescription describe(RunRow row) {
		List<PendingActivity> pending = row.isOpen() ? pendingActivities(row) : List.of();
		VisibilityRepository.Stored attributes = this.runs.visibility().attributes(row.runId());
		RunChain chain = this.runs.chain(row.runId());
		// a child's parent by its run row: one more read, for children only
		String parentWorkflowId = (row.parentRunId() != null)
				? this.runs.find(row.parentRunId()).map(RunRow::workflowId).orElse(null) : null;
		return new WorkflowDescription(row.workflowId(), row.runId(), row.workflowType(), row.taskQueue(),
				row.status().published(), row.createdAt(), row.closedAt(), row.historySeq(), row.taskFailure(),
				Math.max(0, row.taskAttempt()), pending, row.unfinishedHandlers(),
				Collections.unmodifiableMap(attributes.memo()), Attributes.searchView(attributes.searchAttributes()),
				parentWorkflowId, (parentWorkflowId != null) ? row.parentRunId() : null, row.pausedAt(),
				row.pauseReason(), (chain != null) ? chain.summary() : null, (chain != null) ? chain.details() : null,
				unrecordedInput(row), build(row));
	}

	/**
	 * The run's build as its row holds it, with whether a node of it is live (one more
	 * read by key, for versioned runs only).
	 */
	@Nullable RunBuild build(RunRow row) {
		if (row.build().buildId() == null) {
			return null;
		}
		BuildRepository.RunBuildState state = this.builds.runBuild(row.runId(), this.deadAfterMillis);
		if (state == null) {
			return null;
		}
		return new RunBuild(row.build().buildId(), row.build().pinned(),
				row.isOpen() && row.build().pinned() && !state.buildLive(), state.moveRefused());
	}

	/**
	 * The input of an open run no task has recorded yet (its first task fails, or has not
	 * run), for people: the history shows it once recorded.
	 */
	private Object unrecordedInput(RunRow row) {
		if (!row.isOpen() || row.historySeq() > 0) {
			return null;
		}
		byte[] input = this.runs.input(row.runId());
		return (input != null) ? ReadablePayloads.toReadable(input, this.converter) : null;
	}

	/**
	 * The activities the run's history leaves awaited, with what their row tells when
	 * they have one: attempt, retry time, last failure, state, task queue, start and
	 * heartbeat. A task-queue activity always has a row until its outcome reaches the
	 * run; an inline activity's first attempt has none. A run with neither (the run row's
	 * flag says no inline activity is pending) has no history to read.
	 */
	List<PendingActivity> pendingActivities(RunRow row) {
		return pendingWithOptions(row).stream().map(Pending::activity).toList();
	}

	/**
	 * A pending activity, with the whole options of its attempts to come.
	 *
	 * @param activity as describe shows it
	 * @param options its options (scheduled, or set by an operator), or {@code null}
	 */
	record Pending(PendingActivity activity, ActivityOptions options) {
	}

	/** {@link #pendingActivities}, with each one's whole options. */
	List<Pending> pendingWithOptions(RunRow row) {
		List<ActivityRepository.Described> rows = this.activities.described(row.runId());
		if (rows.isEmpty() && !this.runs.hasActivities(row.runId())) {
			return List.of();
		}
		Map<Long, PendingActivity> pending = new LinkedHashMap<>();
		Map<Long, ActivityOptions> options = new LinkedHashMap<>();
		for (TaskRecord task : this.tasks.history(row.runId())) {
			for (Event event : task.events()) {
				switch (event) {
					case ActivityScheduled scheduled -> {
						pending.put(scheduled.seq(), scheduled(row, scheduled, task.time()));
						options.put(scheduled.seq(), scheduled.options());
					}
					case ActivityCompleted completed -> pending.remove(completed.seq());
					case ActivityFailed failed -> pending.remove(failed.seq());
					case ActivityCancelRequested canceled -> pending.remove(canceled.seq());
					default -> {
					}
				}
			}
		}
		Instant now = this.clock.instant();
		for (ActivityRepository.Described a : rows) {
			pending.computeIfPresent(a.seq(),
					(seq, scheduled) -> new PendingActivity(a.seq(), a.activityType(), a.attempt(), a.scheduledAt(),
							a.nextAttemptAt(),
							(a.lastFailure() != null) ? InternalJson.read(a.lastFailure(), FailureInfo.class).summary()
									: null,
							state(row, a, now), a.taskQueue(), a.startedAt(), a.lastHeartbeatAt(), null, null,
							scheduled.options()));
		}
		if (!pending.isEmpty()) {
			// what operators set: pauses and options (a row only for activities acted on)
			this.activities.pauses().controls(row.runId()).forEach((seq, control) -> {
				if (control.options() != null && pending.containsKey(seq)) {
					options.put(seq, control.options());
				}
				pending.computeIfPresent(seq,
						(key, a) -> new PendingActivity(a.activityId(), a.activityType(), a.attempt(),
								a.scheduledTime(), a.nextAttemptTime(), a.lastFailure(), a.state(), a.taskQueue(),
								a.lastStartedTime(), a.lastHeartbeatTime(), control.pausedAt(), control.pauseReason(),
								(control.options() != null) ? attemptOptions(control.options()) : a.options()));
			});
		}
		return pending.values().stream().map((a) -> new Pending(a, options.get(a.activityId()))).toList();
	}

	/** The options of an activity's attempts, as the client shows them. */
	static ActivityAttemptOptions attemptOptions(ActivityOptions options) {
		return (options != null)
				? new ActivityAttemptOptions(options.retryPolicy(), options.startToCloseTimeout(),
						options.scheduleToCloseTimeout(), options.heartbeatTimeout(), options.scheduleToStartTimeout())
				: null;
	}

	/**
	 * An activity as its scheduling recorded it, before any row says more: an inline
	 * one's first attempt runs on the run's owner; a task-queue one without a row has had
	 * its outcome handed to the run, which has not taken it yet.
	 */
	private static PendingActivity scheduled(RunRow row, ActivityScheduled event, Instant at) {
		String taskQueue = (event.options() != null) ? event.options().taskQueue() : null;
		PendingActivityState state = (taskQueue == null && row.owner() != null) ? PendingActivityState.STARTED
				: PendingActivityState.SCHEDULED;
		return new PendingActivity(event.seq(), event.activityType(), 1, at, at, null, state, taskQueue, null, null,
				null, null, attemptOptions(event.options()));
	}

	/**
	 * A row's state for describe. A task-queue row says it (waiting for a claim, claimed,
	 * waiting for the completion client). An inline row says so only while its attempt
	 * waits for the completion client; otherwise its attempt runs when it is due and a
	 * node owns the run.
	 */
	private static PendingActivityState state(RunRow row, ActivityRepository.Described a, Instant now) {
		return switch (a.state()) {
			case "ASYNC" -> PendingActivityState.AWAITING_COMPLETION;
			// COMPLETED: a transactional attempt committed; its result is on its way to
			// the history
			case "STARTED", "COMPLETED" -> PendingActivityState.STARTED;
			default ->
				(a.taskQueue() == null && a.attempt() > 0 && row.owner() != null && !a.nextAttemptAt().isAfter(now))
						? PendingActivityState.STARTED : PendingActivityState.SCHEDULED;
		};
	}

	List<HistoryEvent> history(RunRow row) {
		return HistoryEvents.of(row, this.tasks.history(row.runId()), this.converter);
	}

}
