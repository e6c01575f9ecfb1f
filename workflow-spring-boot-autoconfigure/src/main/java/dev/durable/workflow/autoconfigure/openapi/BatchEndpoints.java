package dev.durable.workflow.autoconfigure.openapi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.Schema;

import dev.durable.workflow.client.ResetPoint;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.batch.BatchOperation;
import dev.durable.workflow.client.batch.BatchState;

/**
 * The description of the batch endpoints ({@code /batches}): the request and batch
 * schemas, which springdoc cannot infer (the controller reads bytes and answers maps),
 * and their statuses.
 */
final class BatchEndpoints {

	static final String BATCHES = "batches";

	static final Problem INVALID_BATCH = new Problem(400,
			List.of("INVALID_BATCH: a field of the batch is missing, unknown or not valid; nothing started",
					"EMPTY_FILTER: the filter matches every run and \"confirmAll\" is not true; nothing started"));

	static final Problem NOT_FOUND = new Problem(404, "BATCH_NOT_FOUND: no batch with that id");

	static final Problem ID_CONFLICT = new Problem(409,
			"BATCH_ID_CONFLICT: a batch with that id exists with a different request");

	private final Schemas schemas;

	private final Schema<?> problem;

	BatchEndpoints(Schemas schemas, Schema<?> problem) {
		this.schemas = schemas;
		this.problem = problem;
	}

	/**
	 * Describes a batch operation springdoc inferred, by its method and path below the
	 * base path.
	 * @return whether it is one of the batch endpoints
	 */
	boolean describe(String method, String path, Operation operation) {
		OperationDoc doc = new OperationDoc(operation, this.schemas, this.problem);
		List<Problem> problems = new ArrayList<>();
		switch (method + " " + path) {
			case "POST /batches" -> {
				doc.describe(BATCHES, "startBatch", "Cancel, terminate, signal or reset every run a filter matches",
						"A tracked operation that survives restarts, a page of runs at a time. The same batchId "
								+ "with the same body again answers 200 with the existing batch (safe to retry).")
					.body(request(), true, "The operation and the filter")
					.answers(202, "Started", batch())
					.answers(200, "A batch with this id and request exists: it is returned", batch());
				problems.addAll(List.of(INVALID_BATCH, Problem.INVALID_ID, ID_CONFLICT, Problem.UNKNOWN_TYPE));
				problems.addAll(Problem.OPERATION);
			}
			case "GET /batches" ->
				doc.describe(BATCHES, "listBatches", "The latest batches, newest first (?limit=)", null)
					.answers(200, "The batches", this.schemas.array(batch()));
			case "GET /batches/{batchId}" -> {
				doc.describe(BATCHES, "describeBatch", "A batch and its progress", null)
					.answers(200, "The batch", batch());
				problems.add(NOT_FOUND);
			}
			case "POST /batches/{batchId}/cancel" -> {
				doc.describe(BATCHES, "cancelBatch", "Stop a batch after the page under way", null)
					.noBody()
					.answers(200, "The batch now", batch());
				problems.add(NOT_FOUND);
				problems.addAll(Problem.OPERATION);
			}
			default -> {
				return false;
			}
		}
		if (method.equals("GET")) {
			doc.noBody();
			problems.add(Problem.INVALID_PAYLOAD);
		}
		problems.add(Problem.UNAVAILABLE);
		doc.problems(problems);
		return true;
	}

	private Schema<?> filter() {
		return this.schemas.component("BatchFilter",
				this.schemas.object()
					.description("Which runs; every field narrows it (as the list endpoint's parameters)")
					.addProperty("type", this.schemas.string("The workflow type"))
					.addProperty("status", this.schemas.array(strings(WorkflowStatus.values(), "A status")))
					.addProperty("query",
							this.schemas.string("Search-attribute conditions, e.g. customer = 'c-1' AND amount >= 100"))
					.addProperty("startedFrom", this.schemas.string("Runs started at or after").format("date-time"))
					.addProperty("startedTo", this.schemas.string("Runs started before").format("date-time"))
					.addProperty("workflowIdPrefix", this.schemas.string("Runs whose workflow id starts with this")));
	}

	private Schema<?> signal() {
		Schema<?> signal = this.schemas.object()
			.addProperty("name", this.schemas.string("The signal's name"))
			.addProperty("args",
					this.schemas.array(this.schemas.any("The payload"))
						.maxItems(1)
						.description("None or one value: the signal's payload"));
		signal.addRequiredItem("name");
		return signal;
	}

	private Schema<?> request() {
		Schema<?> request = this.schemas.object()
			.addProperty("batchId",
					this.schemas.string("The batch id (generated when absent); a retry with the same"
							+ " id and body returns the batch"))
			.addProperty("operation", strings(BatchOperation.values(), "What is done to each run"))
			.addProperty("filter", filter())
			.addProperty("reason", this.schemas.string("Recorded with each cancel, terminate or reset"))
			.addProperty("signal", signal())
			.addProperty("resetTo", strings(ResetPoint.values(), "RESET: the workflow task each run is reset to"))
			.addProperty("confirmAll",
					this.schemas.typed("boolean")
						.description("Required (true) when the filter is empty and so matches every run"))
			.addProperty("pageSize", this.schemas.typed("integer").description("Runs per page, 1 to 1000 (100)"));
		request.addRequiredItem("operation");
		request.additionalProperties(false);
		return this.schemas.component("BatchRequest", request);
	}

	private Schema<?> batch() {
		Schema<?> failure = this.schemas.object()
			.addProperty("workflowId", this.schemas.string("The run's workflow id"))
			.addProperty("message", this.schemas.string("Why the operation failed on it"));
		Schema<?> count = this.schemas.typed("integer").format("int64");
		return this.schemas.component("Batch",
				this.schemas.object()
					.addProperty("batchId", this.schemas.string("The batch id"))
					.addProperty("operation", strings(BatchOperation.values(), "The operation"))
					.addProperty("state", strings(BatchState.values(), "Where the batch is"))
					.addProperty("filter", filter())
					.addProperty("reason", this.schemas.string("The reason, or null"))
					.addProperty("signal", signal())
					.addProperty("resetTo", strings(ResetPoint.values(), "RESET only"))
					.addProperty("pageSize", this.schemas.typed("integer"))
					.addProperty("total", count.description("Matching runs taken so far"))
					.addProperty("processed", this.schemas.typed("integer").format("int64"))
					.addProperty("succeeded", this.schemas.typed("integer").format("int64"))
					.addProperty("skipped",
							this.schemas.typed("integer")
								.format("int64")
								.description("Runs the operation did not apply to (closed, or reset already)"))
					.addProperty("failed", this.schemas.typed("integer").format("int64"))
					.addProperty("recentFailures", this.schemas.array(failure))
					.addProperty("createdAt", this.schemas.string("When it started").format("date-time"))
					.addProperty("closedAt",
							this.schemas.string("When it completed, was canceled or failed").format("date-time")));
	}

	private Schema<?> strings(Enum<?>[] values, String description) {
		return this.schemas.oneOfStrings(Arrays.stream(values).map(Enum::name).toList(), description);
	}

}
