package dev.durable.workflow.autoconfigure.openapi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.Schema;
import org.jspecify.annotations.Nullable;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.HandlerKind;
import dev.durable.workflow.engine.WorkflowTypeInfo;

/**
 * The schemas that depend on the registered workflow types: one start request per type
 * (its input's schema from the Java type), the results of runs and updates, and the
 * shapes the result and update endpoints answer.
 */
final class TypedSchemas {

	static final String PROBLEM = "WorkflowProblem";

	static final String FAILURE = "WorkflowFailure";

	private final Schemas schemas;

	private final List<WorkflowTypeInfo> types;

	TypedSchemas(Schemas schemas, List<WorkflowTypeInfo> types) {
		this.schemas = schemas;
		this.types = types;
	}

	/**
	 * RFC 9457 problem details with the stable {@code code} of the generated endpoints.
	 */
	Schema<?> problem() {
		Schema<?> problem = this.schemas.object()
			.description("An error of the generated endpoints (application/problem+json)")
			.addProperty("type", this.schemas.string("A URI of the problem type").format("uri-reference"))
			.addProperty("title", this.schemas.string("The HTTP status's phrase"))
			.addProperty("status", this.schemas.typed("integer").format("int32").description("The HTTP status"))
			.addProperty("detail", this.schemas.string("What went wrong, for a person"))
			.addProperty("instance", this.schemas.string("The request path").format("uri-reference"))
			.addProperty("code",
					this.schemas.string("The stable code to act on (INVALID_PAYLOAD, WORKFLOW_NOT_FOUND...)"))
			.addProperty("failure", failure());
		problem.setRequired(new ArrayList<>(List.of("status", "code", "detail")));
		return this.schemas.component(PROBLEM, problem);
	}

	/** A failure of a run, an update or a handler, with its cause chain. */
	Schema<?> failure() {
		Schema<?> failure = this.schemas.object()
			.description("A failure: its kind, message and cause chain")
			.addProperty("class", this.schemas.string("The failure's kind (simple class name)"))
			.addProperty("type", this.schemas.string("An ApplicationFailure's type"))
			.addProperty("nonRetryable", this.schemas.typed("boolean"))
			.addProperty("message", this.schemas.string("The message"))
			.addProperty("cause", this.schemas.ref(FAILURE));
		return this.schemas.component(FAILURE, failure);
	}

	/**
	 * {@code oneOf} the start requests of the registered types, told apart by
	 * {@code type}.
	 */
	Schema<?> startRequest() {
		Schema<?> startOptions = Objects.requireNonNull(this.schemas.of(StartOptions.class));
		Schema<?> oneOf = this.schemas.any("A start request: the workflow type, its input and options");
		Discriminator discriminator = new Discriminator().propertyName("type");
		for (WorkflowTypeInfo type : this.types) {
			Schema<?> typeName = dynamic(type) ? this.schemas.string("Any workflow type name (a dynamic workflow)")
					: this.schemas.oneOfStrings(List.of(type.name()), "The workflow type");
			Schema<?> input = this.schemas.of(type.inputType());
			Schema<?> request = this.schemas.object()
				.description("Starts a run of " + type.name())
				.addProperty("type", typeName)
				.addProperty("workflowId", this.schemas.string("The workflow id; a random UUID when absent"));
			if (input != null) {
				request.addProperty("input", input);
			}
			request.addProperty("options", startOptions).addProperty("signal", signalWithStart(type));
			request.addRequiredItem("type");
			String name = "StartRequest." + componentName(type.name());
			oneOf.addOneOfItem(this.schemas.component(name, request));
			if (!dynamic(type)) {
				discriminator.mapping(type.name(), "#/components/schemas/" + name);
			}
		}
		if (oneOf.getOneOf() == null) {
			return this.schemas.object().description("No workflow type is registered");
		}
		return oneOf.discriminator(discriminator);
	}

	/**
	 * The named handlers of a kind; for signals also the names declared for
	 * {@code Workflows.receive}, as handlers of their declared payload type (any JSON
	 * value when the receiving call types it).
	 */
	static List<WorkflowTypeInfo.Handler> named(WorkflowTypeInfo type, HandlerKind kind) {
		List<WorkflowTypeInfo.Handler> named = new ArrayList<>(type.named(kind));
		if (kind == HandlerKind.SIGNAL) {
			for (WorkflowTypeInfo.Receive receive : type.receives()) {
				if (named.stream().noneMatch((h) -> receive.name().equals(h.name()))) {
					named.add(new WorkflowTypeInfo.Handler(kind, receive.name(),
							(receive.payloadType() != null) ? receive.payloadType() : Object.class, false));
				}
			}
		}
		return named;
	}

	private Schema<?> signalWithStart(WorkflowTypeInfo type) {
		List<String> names = named(type, HandlerKind.SIGNAL).stream().map(WorkflowTypeInfo.Handler::name).toList();
		Schema<?> name = (names.isEmpty() || type.hasDynamic(HandlerKind.SIGNAL))
				? this.schemas.string("The signal's name") : this.schemas.oneOfStrings(names, "The signal's name");
		Schema<?> signal = this.schemas.object()
			.description("Signal-with-start: a signal delivered to the run, started when none is open")
			.addProperty("name", name)
			.addProperty("payload",
					this.schemas.oneOf(payloads(named(type, HandlerKind.SIGNAL)), "The signal's payload"));
		signal.addRequiredItem("name");
		return signal;
	}

	private List<Schema<?>> payloads(List<WorkflowTypeInfo.Handler> handlers) {
		List<Schema<?>> payloads = new ArrayList<>();
		for (WorkflowTypeInfo.Handler handler : handlers) {
			Schema<?> payload = this.schemas.of(handler.payloadType());
			if (payload != null) {
				payloads.add(payload);
			}
		}
		return payloads.isEmpty() ? List.of(this.schemas.any("The payload")) : payloads;
	}

	/** A closed run's result: {@code oneOf} the registered types' result schemas. */
	Schema<?> result() {
		List<Schema<?>> results = new ArrayList<>();
		for (WorkflowTypeInfo type : this.types) {
			Schema<?> result = this.schemas.of(type.resultType());
			if (result != null) {
				results.add(result);
			}
		}
		Schema<?> result = results.isEmpty() ? this.schemas.any("The result")
				: this.schemas.oneOf(results, "The result: the run's workflow type's result type");
		return this.schemas.object()
			.addProperty("status", this.schemas.oneOfStrings(outcomes(),
					"How the run closed; RUNNING only in a 202 answer, so that one client type reads both answers"))
			.addProperty("result", result)
			.addProperty("failure", failure());
	}

	Schema<?> running() {
		return this.schemas.object().addProperty("status", this.schemas.oneOfStrings(List.of("RUNNING"), "Open"));
	}

	/** Any update's result, for the outcome endpoint that knows only the update id. */
	Schema<?> updateResults() {
		List<Schema<?>> results = new ArrayList<>();
		for (WorkflowTypeInfo type : this.types) {
			for (WorkflowTypeInfo.Handler handler : type.named(HandlerKind.UPDATE)) {
				Schema<?> result = this.schemas.of(handler.resultType());
				if (result != null) {
					results.add(result);
				}
			}
		}
		return results.isEmpty() ? this.schemas.any("The result")
				: this.schemas.oneOf(results, "The update handler's result");
	}

	/**
	 * The 200 (completed, with the result) and 202 (accepted or still running) answers of
	 * an update.
	 */
	void updateOutcome(OperationDoc doc, @Nullable Schema<?> result) {
		Schema<?> completed = outcome(List.of(UpdateStage.COMPLETED.name()));
		if (result != null) {
			completed.addProperty("result", result);
		}
		doc.answers(200, "The update completed", completed)
			.answers(202, "Accepted (?waitFor=ACCEPTED), or not completed within 60 s: poll its outcome",
					outcome(List.of(UpdateStage.ADMITTED.name(), UpdateStage.ACCEPTED.name())))
			.header(202, "Retry-After", "Seconds to wait before asking again");
	}

	private Schema<?> outcome(List<String> stages) {
		return this.schemas.object()
			.addProperty("updateId", this.schemas.string("The update id (the Update-Id header, or a random one)"))
			.addProperty("stage", this.schemas.oneOfStrings(stages, "The update's stage"));
	}

	/** The statuses a result answer can carry: open, or closed (a chain's last run). */
	private static List<String> outcomes() {
		return java.util.Arrays.stream(WorkflowStatus.values())
			.map(Enum::name)
			.filter((s) -> !s.equals("CONTINUED_AS_NEW"))
			.toList();
	}

	static boolean dynamic(WorkflowTypeInfo type) {
		Workflow workflow = type.workflowClass().getAnnotation(Workflow.class);
		return workflow != null && workflow.dynamic();
	}

	/** A component name (letters, digits, {@code .-_}) for a type name. */
	static String componentName(String typeName) {
		return typeName.replaceAll("[^A-Za-z0-9._-]", "_");
	}

}
