package dev.durable.workflow.internal.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.durable.workflow.PayloadConverter;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.PendingActivity;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.store.ActivityRepository;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.StoredActivity;
import dev.durable.workflow.internal.store.TaskRepository;
import dev.durable.workflow.internal.store.VisibilityRepository;
import dev.durable.workflow.internal.support.Attributes;
import dev.durable.workflow.internal.support.InternalJson;

/** Describe and history of a run, read from its rows. */
public final class RunDescriber {

	private final RunRepository runs;

	private final TaskRepository tasks;

	private final ActivityRepository activities;

	private final PayloadConverter converter;

	public RunDescriber(RunRepository runs, TaskRepository tasks, ActivityRepository activities, PayloadConverter converter) {
		this.runs = runs;
		this.tasks = tasks;
		this.activities = activities;
		this.converter = converter;
	}

	/** (a run waiting in a flow-control queue has no failed attempts: its negative marker shows as 0) */
	WorkflowDescription describe(RunRow row) {
		List<PendingActivity> pending = row.isOpen() ? pendingActivities(row) : List.of();
		VisibilityRepository.Stored attributes = this.runs.visibility().attributes(row.runId());
		// a child's parent by its run row: one more read, for children only
		String parentWorkflowId = (row.parentRunId() != null)
				? this.runs.find(row.parentRunId()).map(RunRow::workflowId).orElse(null) : null;
		return new WorkflowDescription(row.workflowId(), row.runId(), row.workflowType(), row.taskQueue(),
				WorkflowStatus.valueOf(row.status()), row.createdAt(), row.closedAt(), row.historySeq(),
				row.taskFailure(), Math.max(0, row.taskAttempt()), pending, row.unfinishedHandlers(),
				Collections.unmodifiableMap(attributes.memo()), Attributes.searchView(attributes.searchAttributes()),
				parentWorkflowId, (parentWorkflowId != null) ? row.parentRunId() : null);
	}

	/**
	 * The activities the run's history leaves awaited, with the attempt, retry time and last
	 * failure of their row when they have one (an inline activity's first attempt has none).
	 */
	private List<PendingActivity> pendingActivities(RunRow row) {
		if (!this.runs.hasActivities(row.runId())) {
			return List.of(); // no history to read
		}
		Map<Long, PendingActivity> pending = new LinkedHashMap<>();
		for (TaskRecord task : this.tasks.history(row.runId())) {
			for (Event event : task.events()) {
				switch (event.type()) {
					case ACTIVITY_SCHEDULED -> pending.put(event.seq(),
							new PendingActivity(event.seq(), event.name(), 1, task.time(), task.time(), null));
					case ACTIVITY_COMPLETED, ACTIVITY_FAILED, ACTIVITY_CANCEL_REQUESTED -> pending.remove(event.seq());
					default -> {
					}
				}
			}
		}
		for (StoredActivity a : this.activities.pending(row.runId())) {
			pending.computeIfPresent(a.seq(), (seq, scheduled) -> new PendingActivity(a.seq(), a.activityType(),
					a.attempt(), a.scheduledAt(), a.nextAttemptAt(),
					(a.lastFailure() != null) ? InternalJson.read(a.lastFailure(), FailureInfo.class).summary() : null));
		}
		return List.copyOf(pending.values());
	}

	List<HistoryEvent> history(RunRow row) {
		return HistoryEvents.of(row, this.tasks.history(row.runId()), this.converter);
	}

}
