package dev.durable.workflow.internal.client;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.client.ResetPoint;
import dev.durable.workflow.engine.WorkflowInterceptor.ClientOperation;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.store.InboxDelivery;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.ResetRepository;
import dev.durable.workflow.internal.store.RunPauses;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.store.TaskRepository;
import dev.durable.workflow.internal.support.Interceptors;
import dev.durable.workflow.internal.worker.ResultWaiters;
import dev.durable.workflow.internal.worker.RunWaker;

/**
 * Cancel, terminate, reset, pause and unpause of a run: one transaction each, then the
 * wake-ups of the runs it touched.
 */
public final class RunControl {

	private final RunRepository runs;

	private final TaskRepository tasks;

	private final TransactionTemplate tx;

	private final RunLookup lookup;

	private final RunWaker waker;

	private final ResultWaiters waiters;

	private final Listeners listeners;

	private final Clock clock;

	private final Interceptors interceptors;

	private final RunPauses pauses;

	public RunControl(RunRepository runs, TaskRepository tasks, TransactionTemplate tx, RunLookup lookup,
			RunWaker waker, ResultWaiters waiters, Listeners listeners, Clock clock, Interceptors interceptors,
			RunPauses pauses) {
		this.runs = runs;
		this.tasks = tasks;
		this.tx = tx;
		this.lookup = lookup;
		this.waker = waker;
		this.waiters = waiters;
		this.listeners = listeners;
		this.clock = clock;
		this.interceptors = interceptors;
		this.pauses = pauses;
	}

	/**
	 * Pauses the open run: its owner is woken to see it, and from then on the run takes
	 * no workflow task and starts no activity attempt on any node.
	 * @return whether the call paused it (false: it was paused already)
	 */
	boolean pause(RunRow row, @Nullable String reason) {
		return this.interceptors.client(ClientOperation.PAUSE, row.workflowType(), row.workflowId(), null,
				(headers) -> {
					RunPauses.Paused paused = this.pauses.pause(row.runId(), reason, this.clock.instant())
						.orElseThrow(() -> this.lookup.closed(row));
					this.waker.wake(row.runId(), paused.owner());
					return paused.changed();
				});
	}

	/**
	 * Unpauses the open run: its owner (or, when none, any node) runs a task with what
	 * arrived meanwhile and starts the activity attempts the pause held back.
	 * @return whether the call unpaused it (false: it was not paused)
	 */
	boolean unpause(RunRow row) {
		return this.interceptors.client(ClientOperation.UNPAUSE, row.workflowType(), row.workflowId(), null,
				(headers) -> {
					RunPauses.Paused unpaused = this.pauses.unpause(row.runId())
						.orElseThrow(() -> this.lookup.closed(row));
					this.waker.wake(row.runId(), unpaused.owner());
					return unpaused.changed();
				});
	}

	void cancel(RunRow row, String reason) {
		intercepted(ClientOperation.CANCEL, row, () -> cancelNow(row, reason));
	}

	void terminate(RunRow row, String reason) {
		intercepted(ClientOperation.TERMINATE, row, () -> terminateNow(row, reason));
	}

	UUID reset(RunRow row, long eventId, String reason) {
		return this.interceptors.client(ClientOperation.RESET, row.workflowType(), row.workflowId(), null,
				(headers) -> resetNow(row, eventId, reason));
	}

	/**
	 * The event id a reset point names in the run's history: 1 for the first workflow
	 * task; for the last, the first event of the last row written by a workflow task (not
	 * by a terminate or a timeout).
	 * @throws IllegalArgumentException when the run has no history yet to reset to
	 */
	long eventIdOf(RunRow row, ResetPoint point) {
		List<TaskRecord> history = this.tasks.history(row.runId());
		if (history.isEmpty()) {
			throw new IllegalArgumentException("Run " + row.runId() + " has no history to reset to yet");
		}
		if (point == ResetPoint.FIRST_WORKFLOW_TASK) {
			return 1;
		}
		long first = 1;
		long last = 1;
		for (int i = 0; i < history.size(); i++) {
			TaskRecord record = history.get(i);
			if (i == 0 || !record.writtenOutsideTasks()) {
				last = first;
			}
			first += record.events().size();
		}
		return last;
	}

	private void intercepted(ClientOperation operation, RunRow row, Runnable call) {
		this.interceptors.client(operation, row.workflowType(), row.workflowId(), null, (headers) -> {
			call.run();
			return null;
		});
	}

	private void cancelNow(RunRow row, String reason) {
		byte[] payload = (reason != null) ? reason.getBytes(StandardCharsets.UTF_8) : null;
		InboxDelivery sent = this.tx
			.execute((status) -> this.runs.sendToInbox(row.runId(), InboxKind.CANCEL, null, payload));
		if (!(sent instanceof InboxDelivery.Delivered delivered)) {
			throw this.lookup.closed(row);
		}
		this.waker.wake(row.runId(), delivered.owner());
	}

	private void terminateNow(RunRow row, String reason) {
		List<UUID> woken = this.listeners.closed(row, RunStatus.TERMINATED,
				this.tx.execute((status) -> this.runs.terminateAndWake(row.runId(), reason, this.clock.instant())));
		if (woken == null) {
			throw this.lookup.closed(row);
		}
		this.waiters.closed(row.runId());
		this.waker.wake(row.runId(), row.owner());
		woken.forEach((other) -> this.waker.wake(other, null));
	}

	private UUID resetNow(RunRow row, long eventId, String reason) {
		ResetRepository.Reset reset = this.tx.execute((status) -> new ResetRepository(this.runs, this.tasks).reset(row,
				eventId, reason, this.clock.instant()));
		this.waiters.closed(row.runId());
		if (reset.closedBase()) {
			this.listeners.runClosed(row, RunStatus.TERMINATED);
			this.waker.wake(row.runId(), row.owner());
		}
		if (reset.carriesHistory()) {
			this.runs.find(reset.runId()).ifPresent(this.listeners::runStarted);
		}
		this.waker.wake(reset.runId(), null);
		reset.wake().forEach((other) -> this.waker.wake(other, null));
		return reset.runId();
	}

}
