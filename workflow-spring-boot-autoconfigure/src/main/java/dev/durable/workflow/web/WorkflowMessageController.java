package dev.durable.workflow.web;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.durable.workflow.client.EncodedPayload;
import dev.durable.workflow.client.UpdateHandle;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.HandlerKind;
import dev.durable.workflow.failure.PayloadException;

/**
 * The generated REST endpoints for messages: signals, queries and updates, each payload
 * converted to the handler's parameter type before anything is sent. Without
 * {@code ?runId=} a message goes to the latest run of the workflow id; with it, to that
 * run only (409 WORKFLOW_CLOSED once it closed, even when a later run continues it).
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}/workflows/{workflowId}")
public class WorkflowMessageController {

	private final WorkflowClient client;

	private final WebPayloads payloads;

	private final WebAccess access;

	public WorkflowMessageController(WorkflowClient client, WebPayloads payloads, WebAccess access) {
		this.client = client;
		this.payloads = payloads;
		this.access = access;
	}

	@PostMapping("/signals/{name}")
	ResponseEntity<Void> signal(@PathVariable String workflowId, @PathVariable String name,
			HttpEntity<byte @Nullable []> body,
			@RequestHeader(name = "Idempotency-Key", required = false) @Nullable String idempotencyKey,
			@RequestParam(required = false) java.util.@Nullable UUID runId) {
		this.access.checkWritable();
		handle(workflowId, runId).signalEncoded(name, payload(HandlerKind.SIGNAL, name, body), idempotencyKey);
		return ResponseEntity.accepted().build();
	}

	@ReadEndpoint
	@RequestMapping(path = "/queries/{name}", method = { RequestMethod.GET, RequestMethod.POST })
	@Nullable Object query(@PathVariable String workflowId, @PathVariable String name, HttpEntity<byte @Nullable []> body,
			@RequestParam(required = false) java.util.@Nullable UUID runId) {
		return handle(workflowId, runId).queryEncoded(name, payload(HandlerKind.QUERY, name, body), Object.class);
	}

	@PostMapping("/updates/{name}")
	ResponseEntity<Map<String, Object>> update(@PathVariable String workflowId, @PathVariable String name,
			HttpEntity<byte @Nullable []> body,
			@RequestHeader(name = "Update-Id", required = false) @Nullable String updateId,
			@RequestParam(required = false) @Nullable String waitFor,
			@RequestParam(required = false) java.util.@Nullable UUID runId) {
		this.access.checkWritable();
		UpdateStage stage = stage(waitFor);
		WorkflowHandle<Object> handle = handle(workflowId, runId);
		UpdateOptions options = new UpdateOptions(updateId, UpdateStage.ACCEPTED);
		UpdateHandle<Object> update = handle.startUpdateEncoded(name, payload(HandlerKind.UPDATE, name, body),
				Object.class, options);
		if (stage == UpdateStage.ACCEPTED) {
			return ResponseEntity.accepted().body(outcome(update, "ACCEPTED", null));
		}
		return outcome(update);
	}

	@GetMapping("/updates/{updateId}")
	ResponseEntity<Map<String, Object>> updateOutcome(@PathVariable String workflowId, @PathVariable String updateId,
			@RequestParam(required = false) @Nullable Duration wait) {
		Duration bounded = Waits.bounded(wait);
		UpdateHandle<Object> update = this.client.handle(workflowId).updateHandle(updateId, Object.class);
		update.stage();
		return outcome(update, bounded);
	}

	private WorkflowHandle<Object> handle(String workflowId, java.util.@Nullable UUID runId) {
		return (runId != null) ? this.client.handle(workflowId, runId) : this.client.handle(workflowId);
	}

	private ResponseEntity<Map<String, Object>> outcome(UpdateHandle<Object> update) {
		return outcome(update, Waits.MAX);
	}

	private ResponseEntity<Map<String, Object>> outcome(UpdateHandle<Object> update, Duration wait) {
		try {
			Object result = update.result(wait);
			return ResponseEntity.ok(outcome(update, "COMPLETED", result));
		}
		catch (WorkflowHandle.WorkflowTimeoutException pending) {
			return ResponseEntity.status(HttpStatus.ACCEPTED)
				.header("Retry-After", "1")
				.body(outcome(update, update.stage().name(), null));
		}
	}

	private static Map<String, Object> outcome(UpdateHandle<Object> update, String stage, @Nullable Object result) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("updateId", update.updateId());
		body.put("stage", stage);
		if ("COMPLETED".equals(stage)) {
			body.put("result", result);
		}
		return body;
	}

	/**
	 * The stage an update request waits for: ACCEPTED, or (none given) COMPLETED; in any
	 * case.
	 */
	private static @Nullable UpdateStage stage(@Nullable String waitFor) {
		if (waitFor == null) {
			return null;
		}
		try {
			return UpdateStage.valueOf(waitFor.strip().toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new PayloadException(
					"'waitFor' must be one of " + Arrays.toString(UpdateStage.values()) + ", not '" + waitFor + "'",
					false, ex);
		}
	}

	/**
	 * The body as the client converts it once it has read the run and found the handler:
	 * parsed, size-checked and converted to the handler's parameter type then, so an
	 * unknown workflow or handler is reported before a bad body.
	 */
	private EncodedPayload payload(HandlerKind kind, String name, HttpEntity<byte @Nullable []> body) {
		String what = "payload of " + kind.name().toLowerCase(Locale.ROOT) + " " + name;
		return (type) -> this.payloads.handlerPayload(body, type, what);
	}

}
