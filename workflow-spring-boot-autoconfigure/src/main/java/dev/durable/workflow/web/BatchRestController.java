package dev.durable.workflow.web;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.batch.BatchNotFoundException;
import dev.durable.workflow.client.batch.BatchRequest;
import dev.durable.workflow.client.batch.BatchStatus;

/**
 * The generated REST endpoints for batch operations: start (cancel, terminate, signal or
 * reset of every run a filter matches), list, describe and cancel. Starting and canceling
 * a batch are operations ({@link WebAccess}); reading is open like every read. A start
 * with the id of an existing batch and the same body answers 200 with that batch (a
 * client may retry); with another body, 409 {@code BATCH_ID_CONFLICT}.
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}/batches")
public class BatchRestController {

	private final WorkflowClient client;

	private final WebPayloads payloads;

	private final BatchRequests requests;

	private final WebAccess access;

	public BatchRestController(WorkflowClient client, WebPayloads payloads, WebAccess access) {
		this.client = client;
		this.payloads = payloads;
		this.requests = new BatchRequests(payloads);
		this.access = access;
	}

	@PostMapping
	ResponseEntity<Map<String, Object>> start(HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		JsonNode json = this.payloads.parse(body);
		WebPayloads.refuseNul(json, "batch", "signal.args");
		BatchRequest request = this.requests.read(json);
		boolean existed = request.batchId() != null && exists(request.batchId());
		BatchStatus batch = this.client.startBatch(request);
		return ResponseEntity.status(existed ? HttpStatus.OK : HttpStatus.ACCEPTED).body(BatchView.of(batch));
	}

	@GetMapping
	List<Map<String, Object>> list(@RequestParam(defaultValue = "50") int limit) {
		return this.client.listBatches(limit).stream().map(BatchView::of).toList();
	}

	@GetMapping("/{batchId}")
	Map<String, Object> describe(@PathVariable String batchId) {
		return BatchView.of(this.client.describeBatch(batchId));
	}

	@PostMapping("/{batchId}/cancel")
	Map<String, Object> cancel(@PathVariable String batchId) {
		this.access.checkWritable();
		return BatchView.of(this.client.cancelBatch(batchId));
	}

	private boolean exists(String batchId) {
		try {
			this.client.describeBatch(batchId);
			return true;
		}
		catch (BatchNotFoundException ex) {
			return false;
		}
	}

}
