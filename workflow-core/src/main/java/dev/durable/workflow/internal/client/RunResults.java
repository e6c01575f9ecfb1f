package dev.durable.workflow.internal.client;

import java.lang.reflect.Type;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle.WorkflowTimeoutException;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.worker.LocalNode;
import dev.durable.workflow.internal.worker.ResultWaiters;

/**
 * Waits for a run's outcome and follows its chain (continue-as-new, workflow retry,
 * cron): a run held on this node hands its outcome over when it closes. A run held
 * elsewhere is marked awaited first
 * ({@link dev.durable.workflow.internal.store.AwaitedRuns#mark}); its close then notifies
 * every node, and the waiter reads the outcome when that notification (or the listener's
 * sweep for lost ones) wakes it. No waiter polls.
 */
public final class RunResults {

	private final RunRepository runs;

	private final ResultWaiters waiters;

	private final LocalNode node;

	private final Payloads payloads;

	public RunResults(RunRepository runs, ResultWaiters waiters, LocalNode node, Payloads payloads) {
		this.runs = runs;
		this.waiters = waiters;
		this.node = node;
		this.payloads = payloads;
	}

	/**
	 * @param known the first run's outcome when the caller already has it (a start whose
	 * own first task closed the run), else {@code null}
	 * @param timeout how long to wait, or {@code null} for as long as it takes
	 * @throws WorkflowFailedException when the last run of the chain did not complete
	 * @throws WorkflowTimeoutException when the timeout passed first
	 */
	@SuppressWarnings("unchecked")
	<T> T result(String workflowId, UUID firstRunId, RunRepository.Outcome known, Type type, Duration timeout) {
		long deadline = (timeout != null) ? System.nanoTime() + timeout.toNanos() : Long.MAX_VALUE;
		UUID runId = firstRunId;
		CompletableFuture<Object> closed = this.waiters.future(runId);
		// a run open on this node hands its outcome over when it closes: no need to read
		// it first
		boolean read = !this.node.holdsRun(runId);
		boolean marked = false;
		RunRepository.Outcome given = known;
		while (true) {
			RunRepository.Outcome outcome = (given != null) ? given : ResultWaiters.handedOver(closed);
			given = null;
			if (outcome == null && (read || closed.isDone())) {
				if (closed.isDone()) {
					// woken without an outcome: wait anew, then read what changed
					closed = this.waiters.future(runId);
				}
				// read first: a run already closed (the common case) costs no mark
				outcome = read(workflowId, runId);
				if (!marked && outcome.status() == RunStatus.RUNNING && !this.node.holdsRun(runId)) {
					// open and held elsewhere: once marked, its close notifies this node
					marked = true;
					if (!this.runs.awaited().mark(runId)) {
						outcome = read(workflowId, runId); // it closed between the read
															// and the mark
					}
				}
			}
			read = true;
			if (outcome != null && outcome.status() != RunStatus.RUNNING) {
				this.waiters.forget(runId, closed);
				if (outcome.nextRunId() == null) {
					return (T) decode(workflowId, runId, outcome, type);
				}
				// follow the chain: continue-as-new, workflow retry, cron
				runId = outcome.nextRunId();
				closed = this.waiters.future(runId);
				read = !this.node.holdsRun(runId);
				marked = false;
				continue;
			}
			if (!this.waiters.pause(closed, deadline, this.waiters.resultRecheckMillis())) {
				throw new WorkflowTimeoutException(
						"Workflow " + workflowId + " (run " + runId + ") is still running after " + timeout,
						new TimeoutException());
			}
		}
	}

	private RunRepository.Outcome read(String workflowId, UUID runId) {
		return this.runs.outcome(runId)
			.orElseThrow(() -> new WorkflowNotFoundException("No run " + runId + " of workflow '" + workflowId + "'"));
	}

	private Object decode(String workflowId, UUID runId, RunRepository.Outcome outcome, Type type) {
		WorkflowStatus status = outcome.status().published();
		if (status == WorkflowStatus.COMPLETED) {
			return this.payloads.decode(outcome.result(), type, "the result of workflow " + workflowId);
		}
		FailureInfo failure = outcome.failure();
		Throwable cause = (failure != null) ? Failures.toException(failure, this.payloads.converter()) : null;
		throw new WorkflowFailedException(workflowId, runId, status, cause);
	}

}
