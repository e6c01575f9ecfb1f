package dev.durable.workflow.internal.client;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import dev.durable.workflow.WorkflowIdReusePolicy;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowIdConflictPolicy;
import dev.durable.workflow.internal.client.RunStarter.WithStart;
import dev.durable.workflow.internal.queue.StartExcess;
import dev.durable.workflow.internal.store.DedupRepository;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.RunStatus;

/**
 * What a start does, given the runs its workflow id had: the same run again (its request
 * id), a conflict, the open run used or terminated, or a new run, with the message of a
 * signal- or update-with-start. Runs inside the start's transaction.
 */
final class DecideStart {

	private final RunRepository runs;

	private final DedupRepository dedup;

	private final QueuedStarts queued;

	DecideStart(RunRepository runs, DedupRepository dedup, QueuedStarts queued) {
		this.runs = runs;
		this.dedup = dedup;
		this.queued = queued;
	}

	static WorkflowAlreadyStartedException alreadyRunning(String workflowId, UUID existing) {
		return new WorkflowAlreadyStartedException("Workflow id '" + workflowId + "' is already running"
				+ ((existing != null) ? " (run " + existing + ")" : "")
				+ "; use another id or idConflictPolicy USE_EXISTING/TERMINATE_EXISTING", workflowId, existing);
	}

	/**
	 * @param canceled the runs of the new run's partition key a queue's
	 * {@code CANCEL_OLDEST_RUNNING} asked to cancel, to wake after the commit
	 */
	record StartDecision(UUID runId, boolean created, RunRow terminated, RunRow messaged, List<UUID> terminatedWoken,
			List<StartExcess.CancelRequested> canceled) {

		StartDecision(UUID runId, boolean created, RunRow terminated) {
			this(runId, created, terminated, null, null, List.of());
		}

	}

	/**
	 * @param conflictFromIndex whether a plain start may leave a duplicate open id to the
	 * unique index (its DuplicateKeyException is then the caller's to report)
	 */
	StartDecision decide(NewRun run, StartOptions options, Instant now, WithStart message, boolean conflictFromIndex) {
		String namespace = run.namespace();
		String workflowId = run.workflowId();
		if (options.requestId() != null) {
			Optional<RunRow> same = this.runs.findByRequestId(namespace, workflowId, options.requestId());
			if (same.isPresent()) {
				return new StartDecision(same.get().runId(), false, null);
			}
		}
		if (conflictFromIndex && options.idConflictPolicy() == WorkflowIdConflictPolicy.FAIL
				&& options.idReusePolicy() == WorkflowIdReusePolicy.ALLOW_DUPLICATE && message == null) {
			// nothing to decide from earlier runs: the unique index on open runs refuses
			// a
			// duplicate (DuplicateKeyException, reported by the caller)
			List<StartExcess.CancelRequested> canceled = this.queued.insert(this.runs, run, options, false);
			return new StartDecision(run.runId(), true, null, null, null, canceled);
		}
		RunRow terminated = null;
		List<UUID> terminatedWoken = null;
		Optional<RunRow> open = this.runs.lockOpen(namespace, workflowId);
		if (open.isPresent()) {
			UUID existing = open.get().runId();
			if (options.idConflictPolicy() == WorkflowIdConflictPolicy.TERMINATE_EXISTING
					|| options.idReusePolicy() == WorkflowIdReusePolicy.TERMINATE_IF_RUNNING) {
				terminatedWoken = this.runs.terminateAndWake(existing,
						"terminated by a new start of workflow id " + workflowId, now);
				terminated = open.get();
			}
			else if (options.idConflictPolicy() == WorkflowIdConflictPolicy.USE_EXISTING
					|| (message != null && message.kind() == InboxKind.SIGNAL)) {
				// signal-with-start signals the open run whatever the conflict policy
				if (message != null) {
					send(open.get(), message);
				}
				return new StartDecision(existing, false, null, open.get(), null, List.of());
			}
			else {
				throw alreadyRunning(workflowId, existing);
			}
		}
		else {
			Optional<RunRow> latest = this.runs.findLatest(namespace, workflowId);
			if (latest.isPresent()) {
				RunRow previous = latest.get();
				boolean rejected = switch (options.idReusePolicy()) {
					case REJECT_DUPLICATE -> true;
					case ALLOW_DUPLICATE_FAILED_ONLY -> previous.status() == RunStatus.COMPLETED;
					default -> false;
				};
				if (rejected) {
					throw new WorkflowAlreadyStartedException("Workflow id '" + workflowId
							+ "' was already used by run " + previous.runId() + " (" + previous.status()
							+ ") and the id reuse policy " + options.idReusePolicy() + " forbids another", workflowId,
							previous.runId());
				}
			}
		}
		List<StartExcess.CancelRequested> canceled = this.queued.insert(this.runs, run, options, message != null);
		if (message != null) {
			send(run.runId(), run.namespace(), run.workflowId(), message);
		}
		return new StartDecision(run.runId(), true, terminated, null, terminatedWoken, canceled);
	}

	private void send(RunRow row, WithStart message) {
		send(row.runId(), row.namespace(), row.workflowId(), message);
	}

	private void send(UUID runId, String namespace, String workflowId, WithStart message) {
		if (message.kind() == InboxKind.UPDATE
				&& !this.dedup.admitUpdate(namespace, workflowId, message.messageId(), runId)) {
			return; // a retried update id
		}
		this.runs.sendToInbox(runId, message.kind(), message.name(), message.payload(), message.messageId());
	}

}
