package dev.durable.workflow.client.batch;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A batch and its progress, as stored after each page (read without replaying anything).
 * The counts grow a page at a time: {@code total} is the number of matching runs taken so
 * far (the whole set is known only once the batch completes), {@code processed} =
 * {@code succeeded} + {@code skipped} + {@code failed}. A page redone after a crash
 * counts once; what its first attempt did before the crash shows as skipped (a closed
 * run, a run reset already) or succeeded again (a deduplicated signal).
 *
 * @param batchId the batch id
 * @param request the request, with its batch id
 * @param state where the batch is
 * @param total matching runs taken so far
 * @param processed runs the operation was applied to, or tried on
 * @param succeeded runs it was applied to
 * @param skipped runs it did not apply to (closed, or no longer the latest run of their
 * id)
 * @param failed runs where it failed
 * @param recentFailures the latest failures (up to {@link #RECENT_FAILURES}), oldest
 * first
 * @param createdAt when the batch was started
 * @param closedAt when it completed, was canceled or failed, or {@code null}
 */
public record BatchStatus(String batchId, BatchRequest request, BatchState state, long total, long processed,
		long succeeded, long skipped, long failed, List<Failure> recentFailures, Instant createdAt,
		@Nullable Instant closedAt) {

	/** How many failures a batch keeps for describe. */
	public static final int RECENT_FAILURES = 10;

	public BatchStatus {
		recentFailures = List.copyOf(recentFailures);
	}

	/** The operation, as in the request. */
	public BatchOperation operation() {
		return this.request.operation();
	}

	/**
	 * The operation failed on one run.
	 *
	 * @param workflowId the run's workflow id
	 * @param message why
	 */
	public record Failure(String workflowId, String message) {
	}

}
