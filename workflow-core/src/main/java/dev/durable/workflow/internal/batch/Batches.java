package dev.durable.workflow.internal.batch;

import java.time.Clock;
import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.client.InvalidWorkflowIdException;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.batch.BatchIdConflictException;
import dev.durable.workflow.client.batch.BatchNotFoundException;
import dev.durable.workflow.client.batch.BatchRequest;
import dev.durable.workflow.client.batch.BatchState;
import dev.durable.workflow.client.batch.BatchStatus;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Start, describe, list and cancel of batches for the client. A start inserts the batch
 * row and starts its {@link BatchWorkflow} run in one transaction: either both exist or
 * neither, so a retried start never finds a batch without the run that carries it out.
 */
public final class Batches {

	private static final Logger log = LoggerFactory.getLogger(Batches.class);

	/**
	 * The longest batch id: its run's workflow id (255 characters at most) carries a
	 * prefix.
	 */
	static final int MAX_ID_LENGTH = 255 - BatchWorkflow.TYPE.length() - 1;

	private final String namespace;

	private final BatchRepository batches;

	private final RunLauncher launcher;

	private final Payloads payloads;

	private final TransactionTemplate tx;

	private final Clock clock;

	public Batches(String namespace, BatchRepository batches, RunLauncher launcher, Payloads payloads,
			TransactionTemplate tx, Clock clock) {
		this.namespace = namespace;
		this.batches = batches;
		this.launcher = launcher;
		this.payloads = payloads;
		this.tx = tx;
		this.clock = clock;
	}

	public BatchStatus start(BatchRequest request) {
		String batchId = (request.batchId() != null) ? request.batchId() : UUID.randomUUID().toString();
		if (batchId.isEmpty() || batchId.length() > MAX_ID_LENGTH) {
			throw new InvalidWorkflowIdException("A batch id must be 1 to " + MAX_ID_LENGTH + " characters");
		}
		// the start checks the rest of the id (its characters), rolling the insert back
		String workflowId = BatchWorkflow.workflowId(batchId);
		StoredRequest stored = StoredRequest.of(request);
		Runnable afterCommit = this.tx.execute((status) -> {
			if (!this.batches.insert(this.namespace, batchId, stored, this.clock.instant())) {
				return null;
			}
			byte[] input = this.payloads.encode(batchId, String.class, "batch id");
			return this.launcher.startInTransaction(BatchWorkflow.TYPE, input, StartOptions.withId(workflowId));
		});
		if (afterCommit != null) {
			afterCommit.run();
			log.info("Batch {} started: {} of the runs matching {}", batchId, request.operation(), request.filter());
			return describe(batchId);
		}
		BatchRepository.BatchRow existing = row(batchId);
		if (!existing.fingerprint().equals(stored.fingerprint())) {
			throw new BatchIdConflictException(
					"A batch with id '" + batchId + "' exists already with a different"
							+ " request; choose another id, or send the same request to get the existing batch",
					batchId);
		}
		return existing.status();
	}

	public BatchStatus describe(String batchId) {
		return row(batchId).status();
	}

	public List<BatchStatus> list(int limit) {
		if (limit < 1 || limit > 1000) {
			throw new IllegalArgumentException("limit must be 1 to 1000, not " + limit);
		}
		return this.batches.latest(this.namespace, limit).stream().map(BatchRepository.BatchRow::status).toList();
	}

	/**
	 * Closes the batch as canceled; its run sees that at its next page and ends. The page
	 * under way, if any, still records what it did.
	 */
	public BatchStatus cancel(String batchId) {
		row(batchId);
		if (this.batches.close(this.namespace, batchId, BatchState.CANCELED, this.clock.instant())) {
			log.info("Batch {} canceled", batchId);
		}
		return describe(batchId);
	}

	private BatchRepository.BatchRow row(String batchId) {
		return this.batches.find(this.namespace, batchId)
			.orElseThrow(() -> new BatchNotFoundException("No batch '" + batchId + "'", batchId));
	}

}
