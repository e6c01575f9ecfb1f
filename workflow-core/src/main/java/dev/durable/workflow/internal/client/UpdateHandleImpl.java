package dev.durable.workflow.internal.client;

import java.lang.reflect.Type;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.UpdateHandle;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.client.WorkflowHandle.WorkflowTimeoutException;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowUpdateFailedException;
import dev.durable.workflow.client.WorkflowUpdateRejectedException;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.store.DedupRepository;
import dev.durable.workflow.internal.store.DedupRepository.UpdateRecord;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.worker.LocalNode;
import dev.durable.workflow.internal.worker.ResultWaiters;

/**
 * An update by workflow id and update id; its outcome is read from the dedup record. A
 * waiter whose update is decided by a run held on another node marks that run awaited:
 * the commit that decides the update (or closes the run) then notifies this node, and no
 * waiter polls.
 */
final class UpdateHandleImpl<T> implements UpdateHandle<T> {

	private final DedupRepository dedup;

	private final RunRepository runs;

	private final LocalNode node;

	private final String namespace;

	private final Payloads payloads;

	private final ResultWaiters waiters;

	private final String workflowId;

	private final String updateId;

	private final Type resultType;

	UpdateHandleImpl(DedupRepository dedup, RunRepository runs, LocalNode node, String namespace, Payloads payloads,
			ResultWaiters waiters, String workflowId, String updateId, Type resultType) {
		this.dedup = dedup;
		this.runs = runs;
		this.node = node;
		this.namespace = namespace;
		this.payloads = payloads;
		this.waiters = waiters;
		this.workflowId = workflowId;
		this.updateId = updateId;
		this.resultType = resultType;
	}

	@Override
	public String workflowId() {
		return this.workflowId;
	}

	@Override
	public String updateId() {
		return this.updateId;
	}

	private UpdateRecord record() {
		return this.dedup.findUpdate(this.namespace, this.workflowId, this.updateId)
			.orElseThrow(() -> new WorkflowNotFoundException(
					"No update '" + this.updateId + "' was sent to workflow " + this.workflowId));
	}

	@Override
	public UpdateStage stage() {
		return stageOf(record());
	}

	private static UpdateStage stageOf(UpdateRecord record) {
		return switch (record.stage()) {
			case "ADMITTED" -> UpdateStage.ADMITTED;
			case "ACCEPTED" -> UpdateStage.ACCEPTED;
			default -> UpdateStage.COMPLETED;
		};
	}

	/**
	 * Waits until the update reached the stage (or completed); throws a rejection at
	 * once.
	 */
	void waitFor(UpdateStage stage, Duration timeout) {
		UpdateRecord record = await((r) -> stageOf(r).compareTo(stage) >= 0, timeout);
		if ("REJECTED".equals(record.stage())) {
			throw rejected(record);
		}
	}

	@Override
	public T result() {
		return result(null);
	}

	@Override
	@SuppressWarnings("unchecked")
	public T result(Duration timeout) {
		UpdateRecord record = await((r) -> stageOf(r) == UpdateStage.COMPLETED, timeout);
		if ("REJECTED".equals(record.stage())) {
			throw rejected(record);
		}
		if (record.failure() != null) {
			Throwable cause = Failures.toException(record.failure(), this.payloads.converter());
			throw new WorkflowUpdateFailedException(
					"Update '" + this.updateId + "' of workflow " + this.workflowId + " failed: " + cause.getMessage(),
					cause);
		}
		return (T) this.payloads.decode(record.result(), this.resultType, "the result of update " + this.updateId);
	}

	private RuntimeException rejected(UpdateRecord record) {
		Throwable cause = Failures.toException(record.failure(), this.payloads.converter());
		if ("UnknownUpdate".equals(record.failure().type())) {
			return new UnknownHandlerException(record.failure().message(), cause);
		}
		return new WorkflowUpdateRejectedException("Update '" + this.updateId + "' of workflow " + this.workflowId
				+ " was rejected: " + record.failure().message(), cause);
	}

	private UpdateRecord await(java.util.function.Predicate<UpdateRecord> done, Duration timeout) {
		long deadline = (timeout != null) ? System.nanoTime() + timeout.toNanos() : Long.MAX_VALUE;
		String key = ResultWaiters.updateKey(this.workflowId, this.updateId);
		boolean marked = false;
		while (true) {
			CompletableFuture<Object> progressed = this.waiters.future(key);
			UpdateRecord record = record();
			UUID run = record.runId();
			if (!done.test(record) && run != null && !this.node.holdsRun(run)) {
				// decided elsewhere: the news of that run's commits wakes this waiter
				this.waiters.awaitUpdateOf(run, key);
				if (!marked) {
					marked = true;
					this.runs.awaited().mark(run);
					record = record(); // decided before the mark: no notification will
										// come
				}
			}
			if (done.test(record)) {
				this.waiters.forget(key, progressed);
				return record;
			}
			if (!this.waiters.pause(progressed, deadline, this.waiters.resultRecheckMillis())) {
				throw new WorkflowTimeoutException("Update '" + this.updateId + "' of workflow " + this.workflowId
						+ " is still at stage " + record.stage() + " after " + timeout, new TimeoutException());
			}
		}
	}

}
