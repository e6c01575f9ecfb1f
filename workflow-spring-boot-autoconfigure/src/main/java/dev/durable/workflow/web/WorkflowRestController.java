package dev.durable.workflow.web;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.JsonNode;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.InvalidWorkflowIdException;
import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowPage;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.HandlerKind;
import dev.durable.workflow.engine.WorkflowTypeInfo;
import dev.durable.workflow.failure.PayloadException;

/**
 * The generated REST endpoints for runs: workflow types, start (and signal-with-start),
 * describe, history, result, cancel, terminate and reset. Messages (signals, queries,
 * updates) are in {@link WorkflowMessageController}.
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

	/** The fields of a start body; any other is an error, not ignored. */
	private static final Set<String> START_FIELDS = Set.of("type", "workflowId", "input", "options", "signal");

	private static final Set<String> SIGNAL_FIELDS = Set.of("name", "payload");

	@StartEndpoint
	@PostMapping("/workflows")
	ResponseEntity<Started> start(HttpEntity<byte @Nullable []> body,
			@RequestHeader(name = "Idempotency-Key", required = false) @Nullable String idempotencyKey,
			UriComponentsBuilder uris) {
		this.access.checkWritable();
		JsonNode request = this.payloads.parse(body);
		if (!request.isObject()) {
			throw new PayloadException(
					"The body must be a JSON object: {\"type\", \"workflowId\"?, \"input\", \"options\"?, \"signal\"?}",
					false, null);
		}
		onlyFields(request, START_FIELDS, "a start");
		String workflowId = workflowId(request.get("workflowId"));
		WebPayloads.refuseNul(request, "request", "input", "signal.payload");
		WorkflowTypeInfo definition = this.types.definition(string(request, "type"));
		Object input = this.payloads.payload(request.get("input"), definition.inputType(),
				"input of workflow " + definition.name(), "input");
		StartOptions.Builder options = options(request.get("options")).toBuilder();
		if (workflowId != null) {
			options.workflowId(workflowId);
		}
		if (idempotencyKey != null) {
			options.requestId(idempotencyKey);
		}
		JsonNode signal = request.get("signal");
		WorkflowHandle<Object> handle;
		if (signal != null && !signal.isNull()) {
			this.access.checkOperation(); // it signals the open run of the id, if there
											// is one
			if (!signal.isObject()) {
				throw new PayloadException("\"signal\" must be an object: {\"name\", \"payload\"?}", false, null);
			}
			onlyFields(signal, SIGNAL_FIELDS, "a signal");
			String name = string(signal, "name");
			if (name == null) {
				throw new PayloadException("\"signal\" needs a \"name\"", false, null);
			}
			Object payload = this.payloads.payload(signal.get("payload"),
					this.types.payloadType(definition.name(), HandlerKind.SIGNAL, name), "payload of signal " + name,
					"signal.payload");
			handle = this.client.signalWithStart(definition.name(), input, options.build(), name, payload);
		}
		else {
			handle = this.client.start(definition.name(), input, options.build());
		}
		URI location = uris.path(this.access.basePath() + "/workflows/{id}")
			.buildAndExpand(handle.workflowId())
			.toUri();
		return ResponseEntity.created(location).body(new Started(handle.workflowId(), handle.runId()));
	}

	/**
	 * The workflow id of a start body: absent or {@code null} for a generated one, else a
	 * string. Anything else is refused rather than ignored: a generated id would make a
	 * client's retry start a second run.
	 */
	private static @Nullable String workflowId(@Nullable JsonNode id) {
		if (id == null || id.isNull()) {
			return null;
		}
		if (!id.isString()) {
			throw new InvalidWorkflowIdException("\"workflowId\" must be a JSON string, not " + jsonType(id));
		}
		if (NulCharacterException.contains(id.asString())) {
			throw new InvalidWorkflowIdException("\"workflowId\" contains a NUL character (U+0000)");
		}
		return id.asString();
	}

	static void onlyFields(JsonNode object, Set<String> fields, String what) {
		for (String field : object.propertyNames()) {
			if (!fields.contains(field)) {
				throw new PayloadException(
						"Unknown field \"" + field + "\" in " + what + "; the fields are " + new TreeSet<>(fields),
						false, null);
			}
		}
	}

	private static String jsonType(JsonNode node) {
		return node.isObject() ? "an object" : node.isArray() ? "an array" : node.isNumber() ? "a number"
				: node.isBoolean() ? "a boolean" : "a " + node.getNodeType().name().toLowerCase(Locale.ROOT);
	}

	private StartOptions options(@Nullable JsonNode node) {
		if (node == null || node.isNull()) {
			return StartOptions.DEFAULT;
		}
		StartOptions options = (StartOptions) this.payloads.convert(node, StartOptions.class, "start options");
		return (options != null) ? options : StartOptions.DEFAULT;
	}

	/**
	 * A string field: absent or {@code null} is {@code null}; another JSON type is an
	 * error.
	 */
	static @Nullable String string(JsonNode node, String field) {
		JsonNode value = node.get(field);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.isString()) {
			throw new PayloadException("\"" + field + "\" must be a JSON string, not " + jsonType(value), false, null);
		}
		return value.asString();
	}

	@GetMapping("/workflows")
	WorkflowPage list(@RequestParam(required = false) @Nullable String type,
			@RequestParam(required = false) @Nullable List<String> status,
			@RequestParam(required = false) @Nullable String query,
			@RequestParam(required = false) @Nullable Instant startedFrom,
			@RequestParam(required = false) @Nullable Instant startedTo,
			@RequestParam(required = false) @Nullable String workflowIdPrefix,
			@RequestParam(required = false) @Nullable Boolean paused, @RequestParam(defaultValue = "50") int pageSize,
			@RequestParam(required = false) @Nullable String pageToken) {
		WorkflowFilter filter = filter(type, status, query, startedFrom, startedTo, workflowIdPrefix);
		return this.client.list((paused != null) ? filter.paused(paused) : filter, pageSize, pageToken);
	}

	private static WorkflowFilter filter(@Nullable String type, @Nullable List<String> statusNames,
			@Nullable String query, @Nullable Instant startedFrom, @Nullable Instant startedTo,
			@Nullable String workflowIdPrefix) {
		WorkflowFilter filter = WorkflowFilter.all();
		List<WorkflowStatus> status = (statusNames != null)
				? statusNames.stream().map(WorkflowRestController::status).toList() : null;
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

	/**
	 * A status by its name, in any case; a blank or unknown one is an error, not ignored.
	 */
	private static WorkflowStatus status(String name) {
		try {
			return WorkflowStatus.valueOf(name.strip().toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new PayloadException(
					"'status' must be one of " + Arrays.toString(WorkflowStatus.values()) + ", not '" + name + "'",
					false, ex);
		}
	}

	@GetMapping("/workflows/{workflowId}")
	WorkflowDescription describe(@PathVariable String workflowId,
			@RequestParam(required = false) @Nullable UUID runId) {
		return handle(workflowId, runId).describe();
	}

	@GetMapping("/workflows/{workflowId}/waiting-on")
	List<RunWait> waitingOn(@PathVariable String workflowId, @RequestParam(required = false) @Nullable UUID runId) {
		return handle(workflowId, runId).waitingOn();
	}

	/**
	 * What a run's code last set as its current details.
	 *
	 * @param workflowId the workflow id
	 * @param runId the run
	 * @param currentDetails the text, or {@code null}
	 */
	record CurrentDetails(String workflowId, UUID runId, @Nullable String currentDetails) {
	}

	@GetMapping("/workflows/{workflowId}/current-details")
	CurrentDetails currentDetails(@PathVariable String workflowId,
			@RequestParam(required = false) @Nullable UUID runId) {
		WorkflowHandle<Object> handle = handle(workflowId, runId);
		UUID pinned = handle.runId();
		return new CurrentDetails(workflowId, pinned, this.client.handle(workflowId, pinned).currentDetails());
	}

	@GetMapping("/workflows/{workflowId}/history")
	List<HistoryEvent> history(@PathVariable String workflowId, @RequestParam(required = false) @Nullable UUID runId) {
		return handle(workflowId, runId).history();
	}

	@GetMapping("/workflows/{workflowId}/result")
	ResponseEntity<Map<String, Object>> result(@PathVariable String workflowId,
			@RequestParam(required = false) @Nullable UUID runId,
			@RequestParam(required = false) @Nullable Duration wait) {
		Duration bounded = Waits.bounded(wait);
		WorkflowHandle<Object> handle = handle(workflowId, runId);
		Map<String, Object> body = new LinkedHashMap<>();
		try {
			Object result = handle.result(bounded);
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
			body.put("failure", DurableProblems.failure(failed.getCause()));
			return ResponseEntity.ok(body);
		}
	}

	/**
	 * Why a run is canceled or terminated.
	 *
	 * @param reason the reason
	 */
	record Reason(@Nullable String reason) {
	}

	/**
	 * A reset: the event whose workflow task runs again, and why.
	 *
	 * @param eventId the event (see the history)
	 * @param reason the reason
	 */
	record Reset(@Nullable Long eventId, @Nullable String reason) {
	}

	@PostMapping("/workflows/{workflowId}/cancel")
	ResponseEntity<Void> cancel(@PathVariable String workflowId, @RequestParam(required = false) @Nullable UUID runId,
			HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		handle(workflowId, runId).cancel(reason(body));
		return ResponseEntity.accepted().build();
	}

	@PostMapping("/workflows/{workflowId}/terminate")
	ResponseEntity<Void> terminate(@PathVariable String workflowId,
			@RequestParam(required = false) @Nullable UUID runId, HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		handle(workflowId, runId).terminate(reason(body));
		return ResponseEntity.noContent().build();
	}

	/**
	 * The run after a pause or unpause.
	 *
	 * @param workflowId the workflow id
	 * @param runId the run
	 * @param paused whether it is paused now
	 * @param changed whether the request changed it (false: it was so already)
	 */
	record PauseState(String workflowId, UUID runId, boolean paused, boolean changed) {
	}

	@PostMapping("/workflows/{workflowId}/pause")
	PauseState pause(@PathVariable String workflowId, @RequestParam(required = false) @Nullable UUID runId,
			HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		String reason = reason(body);
		WorkflowHandle<Object> handle = handle(workflowId, runId);
		UUID pinned = handle.runId();
		return new PauseState(workflowId, pinned, true, this.client.handle(workflowId, pinned).pause(reason));
	}

	@PostMapping("/workflows/{workflowId}/unpause")
	PauseState unpause(@PathVariable String workflowId, @RequestParam(required = false) @Nullable UUID runId) {
		this.access.checkWritable();
		UUID pinned = handle(workflowId, runId).runId();
		return new PauseState(workflowId, pinned, false, this.client.handle(workflowId, pinned).unpause());
	}

	@PostMapping("/workflows/{workflowId}/reset")
	Started reset(@PathVariable String workflowId, @RequestParam(required = false) @Nullable UUID runId,
			HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		Reset request = (Reset) this.payloads.convert(checked(body), Reset.class, "reset ({\"eventId\", \"reason\"?})");
		if (request == null || request.eventId() == null) {
			throw new PayloadException("A reset needs an \"eventId\" (see the history)", false, null);
		}
		return new Started(workflowId, handle(workflowId, runId).reset(request.eventId(), request.reason()));
	}

	private @Nullable String reason(HttpEntity<byte @Nullable []> body) {
		Reason request = (Reason) this.payloads.convert(checked(body), Reason.class, "request ({\"reason\"})");
		return (request != null) ? request.reason() : null;
	}

	private JsonNode checked(HttpEntity<byte @Nullable []> body) {
		JsonNode request = this.payloads.parse(body);
		WebPayloads.refuseNul(request, "request");
		return request;
	}

	private WorkflowHandle<Object> handle(String workflowId, @Nullable UUID runId) {
		return (runId != null) ? this.client.handle(workflowId, runId) : this.client.handle(workflowId);
	}

}
