package dev.durable.workflow.internal.inline;

import java.time.Clock;
import java.util.List;

import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.activity.TaskToken;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.runtime.ScheduledActivity;
import dev.durable.workflow.internal.store.ActivityRepository;
import dev.durable.workflow.internal.store.StoredActivity;
import dev.durable.workflow.internal.support.Payloads;

/**
 * The takeover of a claimed run's inline activities: those its previous owner had
 * scheduled and the run still waits for start again, count as lost attempts, wait again
 * for the completion client, or hand over the result a transactional attempt committed,
 * from what their rows and the run's history recorded.
 */
final class RecoverInlineActivities {

	private final ActivityExecutor executor;

	private final ActivityRepository store;

	private final Payloads payloads;

	private final Clock clock;

	RecoverInlineActivities(ActivityExecutor executor, ActivityRepository store, Payloads payloads, Clock clock) {
		this.executor = executor;
		this.store = store;
		this.payloads = payloads;
		this.clock = clock;
	}

	/**
	 * Takes over a pending activity of a run claimed from a node that stopped. An attempt
	 * that was due there may have run (or may have killed that node): it counts as a
	 * failed attempt, so the retry policy, its backoff and its maximum attempts apply to
	 * what happens next.
	 */
	private void recover(InlineRun slot, String workflowId, StoredActivity activity) {
		if (activity.attempt() == 0) {
			// recreated by a reset and never attempted: its first attempt starts now
			this.executor.start(slot, workflowId,
					new StoredActivity(activity.runId(), activity.seq(), activity.activityType(), activity.input(),
							activity.options(), 1, activity.scheduledAt(), activity.nextAttemptAt(), null, null));
			return;
		}
		if (activity.nextAttemptAt().isAfter(this.clock.instant())) {
			this.executor.start(slot, workflowId, activity);
			return;
		}
		FailureInfo lost = FailureInfo.application("NodeLost",
				"the node running attempt " + activity.attempt() + " stopped before reporting its outcome", false, null,
				null, null);
		this.executor.attemptFailed(slot, workflowId, activity, activity.heartbeatDetails(), lost, null);
	}

	/**
	 * After a claim: takes over the activities the previous owner had scheduled that the
	 * run still waits for (see {@link #recover}). One with a row resumes from it
	 * (attempt, retry time, heartbeat); one without was on its first attempt, which
	 * starts from what the history recorded at its scheduling.
	 * @param pending the activities the run's history leaves pending
	 */
	void recoverPending(InlineRun slot, String workflowId, List<ScheduledActivity> pending) {
		List<ScheduledActivity> inline = new java.util.ArrayList<>();
		for (ScheduledActivity scheduled : pending) {
			if (scheduled.options().onTaskQueue()) {
				// its row lives in the database until a worker hands its outcome to the
				// inbox
				slot.activityStored(scheduled.seq());
			}
			else if (!slot.isRunning(scheduled.seq())) {
				inline.add(scheduled);
			}
		}
		if (inline.isEmpty()) {
			// most claimed runs wait for a signal or a timer: no activity rows to read
			return;
		}
		java.util.Map<Long, StoredActivity> stored = new java.util.HashMap<>();
		for (StoredActivity activity : this.store.pending(slot.runId())) {
			stored.put(activity.seq(), activity);
		}
		java.util.Map<Long, ActivityRepository.AsyncAttempt> async = this.store.asyncAttempts(slot.runId());
		java.util.Map<Long, byte[]> committed = this.store.transactionalResults(slot.runId());
		for (ScheduledActivity scheduled : inline) {
			byte[] result = committed.get(scheduled.seq());
			if (result != null) {
				// a transactional attempt committed its writes with this result: never
				// run it again
				slot.activityStored(scheduled.seq());
				slot.handOver(Event.activityCompleted(scheduled.seq(), result));
				continue;
			}
			StoredActivity activity = stored.get(scheduled.seq());
			ActivityRepository.AsyncAttempt waiting = async.get(scheduled.seq());
			if (activity != null && waiting != null) {
				// completed asynchronously: the completion client may still answer, from
				// any node
				slot.activityStored(activity.seq());
				awaitAsync(slot, workflowId, activity, waiting);
				continue;
			}
			if (activity != null) {
				slot.activityStored(activity.seq());
			}
			else {
				activity = new StoredActivity(slot.runId(), scheduled.seq(), scheduled.name(), scheduled.args(),
						scheduled.options(), 1, scheduled.scheduledAt(), scheduled.scheduledAt(), null, null);
			}
			recover(slot, workflowId, activity);
		}
	}

	/**
	 * Waits again, after a takeover, for an inline attempt the completion client
	 * completes: its timeouts are armed from what its row recorded; no code runs.
	 */
	private void awaitAsync(InlineRun slot, String workflowId, StoredActivity activity,
			ActivityRepository.AsyncAttempt waiting) {
		ActivityInfo info = ActivityExecutor.info(workflowId, activity);
		TaskToken token = new TaskToken(activity.runId(), activity.seq(), waiting.token());
		ActivityAttempt attempt = new ActivityAttempt(info, activity.heartbeatDetails(), this.payloads, (details) -> {
		}, this.clock, token::encode);
		attempt.doNotCompleteOnReturn();
		java.time.Instant lastHeartbeat = waiting.lastHeartbeatAt();
		attempt.resumedFrom((lastHeartbeat != null && lastHeartbeat.isAfter(waiting.startedAt())) ? lastHeartbeat
				: waiting.startedAt());
		slot.attemptStarted(activity.seq(), attempt);
		this.executor.armTimeouts(slot, activity, attempt, activity.options(), waiting.startedAt(), waiting.token());
	}

}
