package dev.durable.workflow.client.batch;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.client.ResetPoint;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFilter;

/**
 * A batch operation: one {@link BatchOperation} applied to every run a
 * {@link WorkflowFilter} matches, started by {@link WorkflowClient#startBatch}.
 * Immutable; build one with the static factories and refine it with the {@code with...}
 * methods: <pre>{@code
 * BatchStatus batch = client.startBatch(BatchRequest
 *     .signal(WorkflowFilter.ofType("order").status(WorkflowStatus.RUNNING), "expedite", null)
 *     .withBatchId("expedite-2026-12-03"));
 * }</pre> The runs are taken newest first, a page at a time, as
 * {@link WorkflowClient#list} returns them; a run started after the batch began is not
 * taken. The engine's own runs (the batch's, the semaphore's permits) are never taken.
 *
 * @param batchId the batch id, or {@code null} for a generated one; starting the same id
 * again with the same request returns the existing batch (safe to retry)
 * @param operation what is done to each run
 * @param filter which runs
 * @param reason recorded with each cancel, terminate or reset, or {@code null}
 * @param signalName the signal sent, for {@link BatchOperation#SIGNAL}; else {@code null}
 * @param signalPayload the signal's payload (a JSON-like value: it is stored as JSON and
 * converted to each handler's parameter type), or {@code null}
 * @param resetPoint where each run is reset to, for {@link BatchOperation#RESET}; else
 * {@code null}
 * @param pageSize how many runs are taken at a time (1 to 1,000): each page is one
 * activity of the batch and one update of its progress
 */
public record BatchRequest(@Nullable String batchId, BatchOperation operation, WorkflowFilter filter,
		@Nullable String reason, @Nullable String signalName, @Nullable Object signalPayload,
		@Nullable ResetPoint resetPoint, int pageSize) {

	/** Runs taken at a time unless {@link #withPageSize} says otherwise. */
	public static final int DEFAULT_PAGE_SIZE = 100;

	/**
	 * The canonical constructor: checks the operation's own fields.
	 * @throws IllegalArgumentException for a signal without a name, a reset without a
	 * reset point, or a page size out of range
	 */
	public BatchRequest {
		Objects.requireNonNull(operation, "operation");
		Objects.requireNonNull(filter, "filter");
		if (operation == BatchOperation.SIGNAL && (signalName == null || signalName.isBlank())) {
			throw new IllegalArgumentException("A SIGNAL batch needs a signal name");
		}
		if (operation != BatchOperation.SIGNAL && (signalName != null || signalPayload != null)) {
			throw new IllegalArgumentException("Only a SIGNAL batch takes a signal");
		}
		if (operation == BatchOperation.RESET && resetPoint == null) {
			throw new IllegalArgumentException("A RESET batch needs a reset point");
		}
		if (operation != BatchOperation.RESET && resetPoint != null) {
			throw new IllegalArgumentException("Only a RESET batch takes a reset point");
		}
		if (pageSize < 1 || pageSize > 1000) {
			throw new IllegalArgumentException("A batch's page size must be 1 to 1000, not " + pageSize);
		}
	}

	/** Requests cancellation of every open run the filter matches. */
	public static BatchRequest cancel(WorkflowFilter filter, @Nullable String reason) {
		return new BatchRequest(null, BatchOperation.CANCEL, filter, reason, null, null, null, DEFAULT_PAGE_SIZE);
	}

	/** Terminates every open run the filter matches. */
	public static BatchRequest terminate(WorkflowFilter filter, @Nullable String reason) {
		return new BatchRequest(null, BatchOperation.TERMINATE, filter, reason, null, null, null, DEFAULT_PAGE_SIZE);
	}

	/** Sends the signal to every open run the filter matches, once per run. */
	public static BatchRequest signal(WorkflowFilter filter, String signalName, @Nullable Object payload) {
		return new BatchRequest(null, BatchOperation.SIGNAL, filter, null, signalName, payload, null,
				DEFAULT_PAGE_SIZE);
	}

	/** Pauses every open run the filter matches. */
	public static BatchRequest pause(WorkflowFilter filter, @Nullable String reason) {
		return new BatchRequest(null, BatchOperation.PAUSE, filter, reason, null, null, null, DEFAULT_PAGE_SIZE);
	}

	/** Unpauses every paused open run the filter matches. */
	public static BatchRequest unpause(WorkflowFilter filter) {
		return new BatchRequest(null, BatchOperation.UNPAUSE, filter, null, null, null, null, DEFAULT_PAGE_SIZE);
	}

	/** Resets every run the filter matches to the reset point. */
	public static BatchRequest reset(WorkflowFilter filter, ResetPoint resetPoint, @Nullable String reason) {
		return new BatchRequest(null, BatchOperation.RESET, filter, reason, null, null,
				Objects.requireNonNull(resetPoint, "resetPoint"), DEFAULT_PAGE_SIZE);
	}

	/**
	 * This request with a caller-chosen batch id, so that a retried start finds the batch
	 * it started.
	 */
	public BatchRequest withBatchId(String batchId) {
		return new BatchRequest(Objects.requireNonNull(batchId, "batchId"), this.operation, this.filter, this.reason,
				this.signalName, this.signalPayload, this.resetPoint, this.pageSize);
	}

	/** This request with a reason recorded with each cancel, terminate or reset. */
	public BatchRequest withReason(@Nullable String reason) {
		return new BatchRequest(this.batchId, this.operation, this.filter, reason, this.signalName, this.signalPayload,
				this.resetPoint, this.pageSize);
	}

	/** This request taking this many runs at a time (1 to 1,000). */
	public BatchRequest withPageSize(int pageSize) {
		return new BatchRequest(this.batchId, this.operation, this.filter, this.reason, this.signalName,
				this.signalPayload, this.resetPoint, pageSize);
	}

}
