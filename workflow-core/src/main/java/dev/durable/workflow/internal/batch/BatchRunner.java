package dev.durable.workflow.internal.batch;

import java.lang.reflect.Type;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

import dev.durable.workflow.client.EncodedPayload;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowExecution;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowPage;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.batch.BatchState;
import dev.durable.workflow.client.batch.BatchStatus;
import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.support.Payloads;

/**
 * One page of a batch: lists the next matching runs through the client (newest first,
 * from the stored page token), applies the operation to each, pinned to the run listed,
 * and records the page with a compare-and-set. Each application is safe to repeat when
 * the page is redone after a crash: a signal carries an idempotency key made of the batch
 * and workflow ids; cancel, terminate or signal of a closed run is skipped; a reset of a
 * run that is no longer the latest of its id (the first attempt reset it) is skipped. A
 * database error fails the attempt (the activity is retried); anything else a run answers
 * counts as that run's failure.
 */
public final class BatchRunner implements BatchActivities {

	private static final Logger log = LoggerFactory.getLogger(BatchRunner.class);

	private final String namespace;

	private final BatchRepository batches;

	private final WorkflowClient client;

	private final Payloads payloads;

	private final Clock clock;

	public BatchRunner(String namespace, BatchRepository batches, WorkflowClient client, Payloads payloads,
			Clock clock) {
		this.namespace = namespace;
		this.batches = batches;
		this.client = client;
		this.payloads = payloads;
		this.clock = clock;
	}

	@Override
	public boolean processPage(String batchId) {
		BatchRepository.BatchRow row = this.batches.find(this.namespace, batchId).orElse(null);
		if (row == null || row.status().state() != BatchState.RUNNING) {
			return false;
		}
		StoredRequest request = row.request();
		WorkflowPage page;
		try {
			page = this.client.list(request.filter().toFilter(), request.pageSize(), row.pageToken());
		}
		catch (IllegalArgumentException ex) {
			// the filter cannot be listed: retrying will not help
			log.warn("Batch {} failed: its filter cannot be listed: {}", batchId, ex.getMessage());
			this.batches.close(this.namespace, batchId, BatchState.FAILED, this.clock.instant());
			return false;
		}
		long total = 0;
		long succeeded = 0;
		long skipped = 0;
		List<BatchStatus.Failure> failures = new ArrayList<>(row.status().recentFailures());
		for (WorkflowExecution run : page.executions()) {
			if (WorkflowRegistry.isInternal(run.workflowType())) {
				continue; // the engine's own runs (this one among them) are never taken
			}
			total++;
			Outcome outcome = apply(batchId, request, run);
			if (outcome.kind() == Outcome.Kind.APPLIED) {
				succeeded++;
			}
			else if (outcome.kind() == Outcome.Kind.SKIPPED) {
				skipped++;
			}
			else {
				failures.add(new BatchStatus.Failure(run.workflowId(), outcome.failure()));
			}
		}
		long failed = total - succeeded - skipped;
		List<BatchStatus.Failure> recent = failures.subList(Math.max(0, failures.size() - BatchStatus.RECENT_FAILURES),
				failures.size());
		boolean recorded = this.batches.recordPage(this.namespace, batchId, row.pages(), page.nextPageToken(),
				new BatchRepository.PageCounts(total, total, succeeded, skipped, failed), recent, this.clock.instant());
		if (recorded && page.nextPageToken() == null) {
			log.info("Batch {} done: {} runs taken on its last page", batchId, total);
		}
		return page.nextPageToken() != null;
	}

	/**
	 * What the operation did to one run.
	 *
	 * @param kind applied, skipped or failed
	 * @param failure why it failed, or {@code null}
	 */
	private record Outcome(Kind kind, @Nullable String failure) {

		static final Outcome APPLIED = new Outcome(Kind.APPLIED, null);

		static final Outcome SKIPPED = new Outcome(Kind.SKIPPED, null);

		static Outcome failed(RuntimeException ex) {
			return new Outcome(Kind.FAILED,
					(ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName());
		}

		enum Kind {

			APPLIED, SKIPPED, FAILED

		}

	}

	/** Applies the operation to one run. */
	private Outcome apply(String batchId, StoredRequest request, WorkflowExecution run) {
		boolean open = run.status() == WorkflowStatus.RUNNING;
		try {
			WorkflowHandle<Object> handle = this.client.handle(run.workflowId(), run.runId());
			switch (request.operation()) {
				case CANCEL -> {
					if (!open) {
						return Outcome.SKIPPED;
					}
					handle.cancel(request.reason());
				}
				case TERMINATE -> {
					if (!open) {
						return Outcome.SKIPPED;
					}
					handle.terminate(request.reason());
				}
				case SIGNAL -> {
					if (!open) {
						return Outcome.SKIPPED;
					}
					handle.signalEncoded(request.signalName(), payload(request),
							idempotencyKey(batchId, run.workflowId()));
				}
				case PAUSE -> {
					if (!open) {
						return Outcome.SKIPPED;
					}
					handle.pause(request.reason());
				}
				case UNPAUSE -> {
					if (!open) {
						return Outcome.SKIPPED;
					}
					handle.unpause();
				}
				case RESET -> {
					try {
						handle.reset(request.resetPoint(), request.reason());
					}
					catch (IllegalStateException notLatest) {
						return Outcome.SKIPPED; // reset already (by this batch's earlier
												// attempt, or since)
					}
				}
			}
			return Outcome.APPLIED;
		}
		catch (WorkflowClosedException | WorkflowNotFoundException gone) {
			return Outcome.SKIPPED;
		}
		catch (DataAccessException ex) {
			throw ex; // the database, not the run: the page is retried
		}
		catch (RuntimeException ex) {
			return Outcome.failed(ex);
		}
	}

	/**
	 * The idempotency key of a batch's signal to a workflow id: a redone page sends
	 * nothing twice.
	 */
	static String idempotencyKey(String batchId, String workflowId) {
		return "durable-batch:" + batchId + ":" + workflowId;
	}

	/**
	 * The stored JSON payload as the handler's parameter type, through the engine's
	 * converter.
	 */
	private EncodedPayload payload(StoredRequest request) {
		return (@Nullable Type type) -> {
			if (request.signalPayload() == null || request.signalPayload().isNull()) {
				return null;
			}
			if (type == null) {
				throw new PayloadException("Signal " + request.signalName() + " takes no payload", false, null);
			}
			String what = "payload of signal " + request.signalName();
			return this.payloads.decode(this.payloads.encode(request.signalPayload(), Object.class, what), type, what);
		};
	}

}
