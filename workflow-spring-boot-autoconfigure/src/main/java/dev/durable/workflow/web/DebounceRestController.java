package dev.durable.workflow.web;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import dev.durable.workflow.client.DebounceOptions;
import dev.durable.workflow.client.DebouncedStart;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.WorkflowTypeInfo;
import dev.durable.workflow.failure.PayloadException;

/**
 * The generated REST endpoint of debounced starts: {@code POST /durable/debounces} with
 * {@code {"type", "key", "delay", "maxWait", "input", "workflowId"?, "options"?}}
 * (durations in ISO-8601, {@code "PT10S"}) joins or opens the key's window and answers
 * 202 with {@code {"key", "workflowId", "startsAt", "calls"}}. Open like a start (only a
 * read-only API refuses it); a bad body is 400 with a stable code.
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}/debounces")
public class DebounceRestController {

	private static final Set<String> FIELDS = Set.of("type", "key", "delay", "maxWait", "input", "workflowId",
			"options");

	private final WorkflowClient client;

	private final WorkflowTypes types;

	private final WebPayloads payloads;

	private final WebAccess access;

	public DebounceRestController(WorkflowClient client, WorkflowTypes types, WebPayloads payloads, WebAccess access) {
		this.client = client;
		this.types = types;
		this.payloads = payloads;
		this.access = access;
	}

	@StartEndpoint
	@PostMapping
	ResponseEntity<DebouncedStart> debounce(HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		JsonNode request = this.payloads.parse(body);
		if (!request.isObject()) {
			throw new PayloadException("The body must be a JSON object: {\"type\", \"key\", \"delay\", \"maxWait\","
					+ " \"input\", \"workflowId\"?, \"options\"?}", false, null);
		}
		WorkflowRestController.onlyFields(request, FIELDS, "a debounced start");
		WebPayloads.refuseNul(request, "request", "input");
		WorkflowTypeInfo definition = this.types.definition(WorkflowRestController.string(request, "type"));
		Object input = this.payloads.payload(request.get("input"), definition.inputType(),
				"input of workflow " + definition.name(), "input");
		StartOptions options = startOptions(request.get("options"));
		String workflowId = WorkflowRestController.string(request, "workflowId");
		if (workflowId != null) {
			options = options.toBuilder().workflowId(workflowId).build();
		}
		String key = WorkflowRestController.string(request, "key");
		DebounceOptions debounce = new DebounceOptions((key != null) ? key : "", duration(request, "delay"),
				duration(request, "maxWait"), options);
		return ResponseEntity.status(HttpStatus.ACCEPTED)
			.body(this.client.debounce(definition.name(), input, debounce));
	}

	private StartOptions startOptions(@Nullable JsonNode node) {
		if (node == null || node.isNull()) {
			return StartOptions.DEFAULT;
		}
		StartOptions options = (StartOptions) this.payloads.convert(node, StartOptions.class, "start options");
		return (options != null) ? options : StartOptions.DEFAULT;
	}

	private static Duration duration(JsonNode request, String field) {
		String value = WorkflowRestController.string(request, field);
		if (value == null) {
			throw new PayloadException("A debounced start needs \"" + field + "\" (ISO-8601, e.g. \"PT10S\")", false,
					null);
		}
		try {
			return Duration.parse(value);
		}
		catch (DateTimeParseException ex) {
			throw new PayloadException(
					"\"" + field + "\" must be an ISO-8601 duration such as \"PT10S\", not '" + value + "'", false,
					null);
		}
	}

}
