package dev.durable.workflow.autoconfigure.openapi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.jspecify.annotations.Nullable;

/**
 * Describes one operation of the generated endpoints: its tag, id and summary, its JSON
 * body (or none), its success responses and the problem responses it really answers.
 */
final class OperationDoc {

	static final String JSON = "application/json";

	static final String TEXT = "text/plain";

	static final String PROBLEM_JSON = "application/problem+json";

	private final Operation operation;

	private final Schemas schemas;

	private final Schema<?> problem;

	private final Map<String, ApiResponse> successes = new LinkedHashMap<>();

	OperationDoc(Operation operation, Schemas schemas, Schema<?> problem) {
		this.operation = operation;
		this.schemas = schemas;
		this.problem = problem;
		withoutRawBodyParameter();
	}

	/**
	 * Removes the required query parameter springdoc makes of a controller's raw body
	 * ({@code HttpEntity<byte[]>}): the body is described as JSON here, and generated
	 * clients would otherwise ask for a byte array.
	 */
	private void withoutRawBodyParameter() {
		List<Parameter> parameters = this.operation.getParameters();
		if (parameters != null) {
			parameters.removeIf((parameter) -> "body".equals(parameter.getName()) && "query".equals(parameter.getIn()));
			if (parameters.isEmpty()) {
				this.operation.setParameters(null);
			}
		}
	}

	Operation operation() {
		return this.operation;
	}

	OperationDoc describe(String tag, String operationId, String summary, @Nullable String description) {
		this.operation.setTags(new ArrayList<>(List.of(tag)));
		this.operation.setOperationId(operationId);
		this.operation.setSummary(summary);
		this.operation.setDescription(description);
		return this;
	}

	/** The JSON body; a {@code null} schema means the operation takes no body. */
	OperationDoc body(@Nullable Schema<?> schema, boolean required, String description) {
		if (schema == null) {
			return noBody();
		}
		this.operation.setRequestBody(new RequestBody().required(required)
			.description(description)
			.content(new Content().addMediaType(JSON, new MediaType().schema(schema))));
		return this;
	}

	/**
	 * A string payload: the text itself ({@code text/plain}, listed first, so that code
	 * generators send a string as it is) or a JSON string.
	 */
	OperationDoc textBody(Schema<?> schema, boolean required, String description) {
		this.operation.setRequestBody(new RequestBody().required(required)
			.description(description)
			.content(new Content().addMediaType(TEXT, new MediaType().schema(schema))
				.addMediaType(JSON, new MediaType().schema(schema))));
		return this;
	}

	OperationDoc noBody() {
		this.operation.setRequestBody(null);
		return this;
	}

	OperationDoc parameter(Parameter parameter) {
		this.operation.addParametersItem(parameter);
		return this;
	}

	/** A success response, with a JSON body unless the schema is {@code null}. */
	OperationDoc answers(int status, String description, @Nullable Schema<?> schema) {
		ApiResponse response = new ApiResponse().description(description);
		if (schema != null) {
			response.content(new Content().addMediaType(JSON, new MediaType().schema(schema)));
		}
		this.successes.put(String.valueOf(status), response);
		return this;
	}

	/**
	 * A success response whose body is a stream of Server-Sent Events
	 * ({@code text/event-stream}).
	 */
	OperationDoc answersEventStream(int status, String description) {
		ApiResponse response = new ApiResponse().description(description)
			.content(new Content().addMediaType("text/event-stream",
					new MediaType().schema(this.schemas.string("id: <offset>, data: <value as JSON>"))));
		this.successes.put(String.valueOf(status), response);
		return this;
	}

	OperationDoc header(int status, String name, String description) {
		this.successes.get(String.valueOf(status))
			.addHeaderObject(name, new Header().description(description).schema(this.schemas.string(description)));
		return this;
	}

	/**
	 * Replaces the responses: the successes given, then the problems grouped by status.
	 */
	void problems(Collection<Problem> problems) {
		ApiResponses responses = new ApiResponses();
		this.successes.forEach(responses::addApiResponse);
		Map<Integer, List<String>> byStatus = new TreeMap<>();
		for (Problem problem : problems) {
			List<String> codes = byStatus.computeIfAbsent(problem.status(), (s) -> new ArrayList<>());
			problem.codes().stream().filter((c) -> !codes.contains(c)).forEach(codes::add);
		}
		byStatus.forEach((status, codes) -> {
			ApiResponse response = new ApiResponse().description(String.join("; ", codes))
				.content(new Content().addMediaType(PROBLEM_JSON, new MediaType().schema(this.problem)));
			if (status == 503) {
				response.addHeaderObject("Retry-After",
						new Header().description("Seconds to wait").schema(this.schemas.typed("integer")));
			}
			responses.addApiResponse(String.valueOf(status), response);
		});
		this.operation.setResponses(responses);
	}

}
