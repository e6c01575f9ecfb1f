package dev.durable.workflow.web;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

import dev.durable.workflow.WorkflowTypeInfo;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowPage;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.HandlerKind;

/**
 * The generated REST endpoints for runs: workflow types, start (and signal-with-start),
 * describe, history, result, cancel, terminate and reset. Messages (signals, queries, updates)
 * are in {@link WorkflowMessageController}.
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}")
public class WorkflowRestController {

	private final WorkflowClient client;

	private final WorkflowTypes types;

	private final WebPayloads payloads;

	private final WebAccess access;

	public WorkflowRestController(WorkflowClient client, WorkflowTypes types, WebPayloads payloads, WebAccess access) {
		this.client = client;
		this.types = types;
		this.payloads = payloads;
		this.access = access;
	}

	@GetMapping("/workflow-types")
	List<WorkflowTypes.TypeInfo> workflowTypes() {
		return this.types.all();
	}

	/**
	 * A run started.
	 *
	 * @param workflowId its workflow id
	 * @param runId its run id
	 */
	record Started(String workflowId, UUID runId) {
	}

	@StartEndpoint
	@PostMapping("/workflows")
	ResponseEntity<Started> start(@RequestBody(required = false) byte @Nullable [] body,
			@RequestHeader(name = "Idempotency-Key", required = false) @Nullable String idempotencyKey,
			UriComponentsBuilder uris) {
		this.access.checkWritable();
		JsonNode request = this.payloads.parse(body);
		if (!request.isObject()) {
			throw new dev.durable.workflow.PayloadException(
					"The body must be a JSON object: {\"type\", \"workflowId\"?, \"input\", \"options\"?, \"signal\"?}",
					false, null);
		}
		WorkflowTypeInfo definition = this.types.definition(text(request, "type"));
		Object input = this.payloads.convert(request.get("input"), definition.inputType(),
				"input of workflow " + definition.name());
		StartOptions.Builder options = options(request.get("options")).toBuilder();
		if (text(request, "workflowId") != null) {
			options.workflowId(text(request, "workflowId"));
		}
		if (idempotencyKey != null) {
			options.requestId(idempotencyKey);
		}
		JsonNode signal = request.get("signal");
		WorkflowHandle<Object> handle;
		if (signal != null && !signal.isNull()) {
			this.access.checkOperation(); // it signals the open run of the id, if there is one
			String name = text(signal, "name");
			if (name == null) {
				throw new dev.durable.workflow.PayloadException("\"signal\" needs a \"name\"", false, null);
			}
			Object payload = this.payloads.convert(signal.get("payload"),
					this.types.payloadType(definition.name(), HandlerKind.SIGNAL, name), "payload of signal " + name);
			handle = this.client.signalWithStart(definition.name(), input, options.build(), name, payload);
		}
		else {
			handle = this.client.start(definition.name(), input, options.build());
		}
		URI location = uris.path(this.access.basePath() + "/workflows/{id}").buildAndExpand(handle.workflowId()).toUri();
		return ResponseEntity.created(location).body(new Started(handle.workflowId(), handle.runId()));
	}

	private StartOptions options(@Nullable JsonNode node) {
		if (node == null || node.isNull()) {
			return StartOptions.DEFAULT;
		}
		StartOptions options = (StartOptions) this.payloads.convert(node, StartOptions.class, "start options");
		return (options != null) ? options : StartOptions.DEFAULT;
	}

	private static @Nullable String text(JsonNode node, String field) {
		JsonNode value = node.get(field);
		return (value != null && value.isString()) ? value.asString() : null;
	}

	@GetMapping("/workflows")
	WorkflowPage list(@RequestParam(required = false) @Nullable String type,
			@RequestParam(required = false) @Nullable List<WorkflowStatus> status,
			@RequestParam(required = false) @Nullable String query,
			@RequestParam(required = false) @Nullable Instant startedFrom,
			@RequestParam(required = false) @Nullable Instant startedTo,
			@RequestParam(required = false) @Nullable String workflowIdPrefix,
			@RequestParam(defaultValue = "50") int pageSize,
			@RequestParam(required = false) @Nullable String pageToken) {
		return this.client.list(filter(type, status, query, startedFrom, startedTo, workflowIdPrefix), pageSize,
				pageToken);
	}

	private static WorkflowFilter filter(@Nullable String type, @Nullable List<WorkflowStatus> status,
			@Nullable String query, @Nullable Instant startedFrom, @Nullable Instant startedTo,
			@Nullable String workflowIdPrefix) {
		WorkflowFilter filter = WorkflowFilter.all();
		if (type != null) {
			filter = filter.type(type);
		}
		if (status != null && !status.isEmpty()) {
			filter = filter.status(status.get(0), status.subList(1, status.size()).toArray(WorkflowStatus[]::new));
		}
		if (startedFrom != null || startedTo != null) {
			filter = filter.startedBetween(startedFrom, startedTo);
		}
		if (workflowIdPrefix != null) {
			filter = filter.workflowIdPrefix(workflowIdPrefix);
		}
		return SearchQuery.apply(query, filter);
	}

	@GetMapping("/workflows/{workflowId}")
	WorkflowDescription describe(@PathVariable String workflowId,
			@RequestParam(required = false) @Nullable UUID runId) {
		return handle(workflowId, runId).describe();
	}

	@GetMapping("/workflows/{workflowId}/history")
	List<HistoryEvent> history(@PathVariable String workflowId,
			@RequestParam(required = false) @Nullable UUID runId) {
		return handle(workflowId, runId).history();
	}

	@GetMapping("/workflows/{workflowId}/result")
	ResponseEntity<Map<String, Object>> result(@PathVariable String workflowId,
			@RequestParam(required = false) @Nullable UUID runId, @RequestParam(required = false) @Nullable Duration wait) {
		WorkflowHandle<Object> handle = handle(workflowId, runId);
		Map<String, Object> body = new LinkedHashMap<>();
		try {
			Object result = handle.result((wait != null) ? wait : Duration.ZERO);
			body.put("status", "COMPLETED");
			body.put("result", result);
			return ResponseEntity.ok(body);
		}
		catch (WorkflowHandle.WorkflowTimeoutException running) {
			body.put("status", "RUNNING");
			return ResponseEntity.status(HttpStatus.ACCEPTED).header("Retry-After", "1").body(body);
		}
		catch (WorkflowFailedException failed) {
			body.put("status", failed.getStatus().name());
			body.put("failure", WorkflowProblems.failure(failed.getCause()));
			return ResponseEntity.ok(body);
		}
	}

	/**
	 * Why a run is canceled, terminated or reset.
	 *
	 * @param reason the reason
	 * @param eventId for a reset: the event whose workflow task runs again
	 */
	record Lifecycle(@Nullable String reason, @Nullable Long eventId) {
	}

	@PostMapping("/workflows/{workflowId}/cancel")
	ResponseEntity<Void> cancel(@PathVariable String workflowId, @RequestParam(required = false) @Nullable UUID runId,
			@RequestBody(required = false) byte @Nullable [] body) {
		this.access.checkWritable();
		handle(workflowId, runId).cancel(lifecycle(body).reason());
		return ResponseEntity.accepted().build();
	}

	@PostMapping("/workflows/{workflowId}/terminate")
	ResponseEntity<Void> terminate(@PathVariable String workflowId,
			@RequestParam(required = false) @Nullable UUID runId, @RequestBody(required = false) byte @Nullable [] body) {
		this.access.checkWritable();
		handle(workflowId, runId).terminate(lifecycle(body).reason());
		return ResponseEntity.noContent().build();
	}

	@PostMapping("/workflows/{workflowId}/reset")
	Started reset(@PathVariable String workflowId, @RequestParam(required = false) @Nullable UUID runId,
			@RequestBody(required = false) byte @Nullable [] body) {
		this.access.checkWritable();
		Lifecycle request = lifecycle(body);
		if (request.eventId() == null) {
			throw new dev.durable.workflow.PayloadException("A reset needs an \"eventId\" (see the history)", false,
					null);
		}
		return new Started(workflowId, handle(workflowId, runId).reset(request.eventId(), request.reason()));
	}

	private Lifecycle lifecycle(byte @Nullable [] body) {
		Lifecycle request = (Lifecycle) this.payloads.convert(this.payloads.parse(body), Lifecycle.class,
				"request ({\"reason\", \"eventId\"?})");
		return (request != null) ? request : new Lifecycle(null, null);
	}

	private WorkflowHandle<Object> handle(String workflowId, @Nullable UUID runId) {
		return (runId != null) ? this.client.handle(workflowId, runId) : this.client.handle(workflowId);
	}

}
