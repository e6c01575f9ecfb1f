package dev.durable.workflow.autoconfigure.openapi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import org.jspecify.annotations.Nullable;
import org.springframework.web.util.UriUtils;

import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.engine.HandlerKind;
import dev.durable.workflow.engine.WorkflowTypeInfo;

import static dev.durable.workflow.autoconfigure.openapi.Problem.INVALID_PAYLOAD;
import static dev.durable.workflow.autoconfigure.openapi.Problem.QUERY_FAILED;
import static dev.durable.workflow.autoconfigure.openapi.Problem.UNAVAILABLE;
import static dev.durable.workflow.autoconfigure.openapi.Problem.UNKNOWN_HANDLER;
import static dev.durable.workflow.autoconfigure.openapi.Problem.UPDATE_FAILED;
import static dev.durable.workflow.autoconfigure.openapi.Problem.UPDATE_REJECTED;
import static dev.durable.workflow.autoconfigure.openapi.Problem.WORKFLOW_CLOSED;
import static dev.durable.workflow.autoconfigure.openapi.Problem.WORKFLOW_NOT_FOUND;

/**
 * One operation per named signal, query and update handler of the registered types, at
 * the real path of that message name ({@code .../signals/approve} is what the generic
 * {@code .../signals/{name}} route serves for "approve"), with the handler's payload and
 * result schemas. A name several types use with different types gets {@code oneOf} their
 * schemas.
 */
final class HandlerOperations {

	private final Schemas schemas;

	private final Schema<?> problem;

	private final TypedSchemas typed;

	HandlerOperations(Schemas schemas, Schema<?> problem, TypedSchemas typed) {
		this.schemas = schemas;
		this.problem = problem;
		this.typed = typed;
	}

	/**
	 * Adds the operations of every named handler below
	 * {@code {basePath}/workflows/{workflowId}}.
	 */
	void addTo(Paths paths, String basePath, List<WorkflowTypeInfo> types) {
		for (HandlerKind kind : HandlerKind.values()) {
			for (Map.Entry<String, List<Owned>> named : byName(kind, types).entrySet()) {
				String name = named.getKey();
				String path = basePath + "/workflows/{workflowId}/" + segment(kind) + "/"
						+ UriUtils.encodePathSegment(name, java.nio.charset.StandardCharsets.UTF_8);
				PathItem item = new PathItem();
				List<Owned> handlers = named.getValue();
				switch (kind) {
					case SIGNAL -> item.post(signal(name, handlers));
					case QUERY -> {
						// a query without payload is asked with GET (no body), one with a
						// payload with POST
						if (handlers.stream().anyMatch((h) -> h.handler().payloadType() == null)) {
							item.get(query(name, handlers, false));
						}
						if (handlers.stream().anyMatch((h) -> h.handler().payloadType() != null)) {
							item.post(query(name, handlers, true));
						}
					}
					case UPDATE -> item.post(update(name, handlers));
				}
				paths.addPathItem(path, item);
			}
		}
	}

	/** The path segment of a kind, as the message controller maps it. */
	private static String segment(HandlerKind kind) {
		return switch (kind) {
			case SIGNAL -> "signals";
			case QUERY -> "queries";
			case UPDATE -> "updates";
		};
	}

	/** A handler and the workflow type it belongs to. */
	private record Owned(String type, WorkflowTypeInfo.Handler handler) {
	}

	private static Map<String, List<Owned>> byName(HandlerKind kind, List<WorkflowTypeInfo> types) {
		Map<String, List<Owned>> byName = new LinkedHashMap<>();
		for (WorkflowTypeInfo type : types) {
			for (WorkflowTypeInfo.Handler handler : TypedSchemas.named(type, kind)) {
				byName.computeIfAbsent(Objects.requireNonNull(handler.name()), (n) -> new ArrayList<>())
					.add(new Owned(type.name(), handler));
			}
		}
		return byName;
	}

	private Operation signal(String name, List<Owned> handlers) {
		OperationDoc doc = operation(HandlerKind.SIGNAL, name, handlers, "signal", "Signal");
		doc.parameter(header("Idempotency-Key", "A retried signal with the same key is recorded once"));
		body(doc, handlers);
		doc.answers(202, "Signal recorded", null);
		List<Problem> problems = new ArrayList<>(
				List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND, UNKNOWN_HANDLER, WORKFLOW_CLOSED));
		problems.addAll(Problem.OPERATION);
		doc.problems(problems);
		return doc.operation();
	}

	private Operation query(String name, List<Owned> handlers, boolean withPayload) {
		OperationDoc doc = operation(HandlerKind.QUERY, name, handlers, withPayload ? "queryWithPayload" : "query",
				"Query");
		List<Problem> problems = new ArrayList<>(
				List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND, UNKNOWN_HANDLER, QUERY_FAILED, UNAVAILABLE));
		if (withPayload) {
			body(doc, handlers.stream().filter((h) -> h.handler().payloadType() != null).toList());
			problems.addAll(List.of(Problem.TOO_LARGE, Problem.NOT_JSON));
		}
		doc.answers(200, "The query's result", results(handlers));
		doc.problems(problems);
		return doc.operation();
	}

	private Operation update(String name, List<Owned> handlers) {
		OperationDoc doc = operation(HandlerKind.UPDATE, name, handlers, "update", "Update");
		doc.parameter(header("Update-Id", "The update's id: a retried update with the same id is applied once"))
			.parameter(new Parameter().in("query")
				.name("waitFor")
				.description("ACCEPTED: answer 202 once the update is accepted, without waiting for its result")
				.schema(this.schemas.oneOfStrings(List.of(UpdateStage.ACCEPTED.name(), UpdateStage.COMPLETED.name()),
						"The stage to wait for")));
		body(doc, handlers);
		this.typed.updateOutcome(doc, results(handlers));
		List<Problem> problems = new ArrayList<>(List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND, UNKNOWN_HANDLER,
				WORKFLOW_CLOSED, UPDATE_FAILED, UPDATE_REJECTED));
		problems.addAll(Problem.OPERATION);
		doc.problems(problems);
		return doc.operation();
	}

	private OperationDoc operation(HandlerKind kind, String name, List<Owned> handlers, String idPrefix, String verb) {
		List<String> owners = handlers.stream().map(Owned::type).distinct().toList();
		OperationDoc doc = new OperationDoc(new Operation(), this.schemas, this.problem).describe(
				GenericEndpoints.WORKFLOWS, idPrefix + "_" + TypedSchemas.componentName(name),
				verb + " " + name + " (" + String.join(", ", owners) + ")",
				"The " + kind.name().toLowerCase(Locale.ROOT) + " handler '" + name + "' of the workflow type"
						+ ((owners.size() == 1) ? " " : "s ") + String.join(", ", owners)
						+ ". Without runId it goes to the latest run of the workflow id.");
		doc.parameter(new Parameter().in("path")
			.name("workflowId")
			.required(true)
			.description("The workflow id")
			.schema(this.schemas.string("The workflow id")))
			.parameter(new Parameter().in("query")
				.name("runId")
				.description("Only this run (409 WORKFLOW_CLOSED once it closed)")
				.schema(this.schemas.string("A run id").format("uuid")));
		return doc;
	}

	private Parameter header(String name, String description) {
		return new Parameter().in("header")
			.name(name)
			.description(description)
			.schema(this.schemas.string(description));
	}

	/** The handlers' payload schema; no body when none of them takes a payload. */
	private void body(OperationDoc doc, List<Owned> handlers) {
		List<Schema<?>> payloads = new ArrayList<>();
		boolean optional = false;
		for (Owned owned : handlers) {
			Schema<?> payload = this.schemas.of(owned.handler().payloadType());
			if (payload == null) {
				optional = true;
			}
			else {
				payloads.add(payload);
			}
		}
		if (payloads.isEmpty()) {
			doc.noBody();
			return;
		}
		Schema<?> schema = this.schemas.oneOf(payloads, "The payload of the run's workflow type's handler");
		boolean text = handlers.stream().allMatch((owned) -> owned.handler().payloadType() == String.class);
		if (text) {
			doc.textBody(schema, !optional, "The handler's payload: the text itself, or a JSON string");
		}
		else {
			doc.body(schema, !optional, "The handler's payload");
		}
	}

	private @Nullable Schema<?> results(List<Owned> handlers) {
		List<Schema<?>> results = new ArrayList<>();
		for (Owned owned : handlers) {
			Schema<?> result = this.schemas.of(owned.handler().resultType());
			if (result != null) {
				results.add(result);
			}
		}
		return results.isEmpty() ? null
				: this.schemas.oneOf(results, "The result of the run's workflow type's handler");
	}

}
