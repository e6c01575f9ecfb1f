package dev.durable.workflow.autoconfigure.openapi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import dev.durable.workflow.autoconfigure.openapi.claims.ClaimsApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * With springdoc on the classpath, the application's OpenAPI document describes the
 * generated endpoints per workflow type: schemas from the Java types, real status codes
 * with the problem schema, no body on GET, no dashboard, every operation tagged.
 */
@SpringBootTest(classes = ClaimsApplication.class,
		properties = { "durable.workflow.schema=openapi_document", "durable.workflow.embedded-postgres.enabled=false",
				"durable.workflow.worker.enabled=false" })
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiDocumentTest {

	private static final String PROBLEM = "#/components/schemas/WorkflowProblem";

	@Autowired
	private WebApplicationContext context;

	private JsonNode document;

	@BeforeAll
	void fetchTheDocument() throws Exception {
		MockMvc mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
		String body = mvc.perform(get("/v3/api-docs")).andReturn().getResponse().getContentAsString();
		this.document = JsonMapper.builder().build().readTree(body);
		assertThat(this.document.path("paths").isObject()).as(body).isTrue();
	}

	private JsonNode paths() {
		return this.document.path("paths");
	}

	/** A schema, following a $ref to the components. */
	private JsonNode resolve(JsonNode schema) {
		String ref = schema.path("$ref").asString("");
		return ref.isEmpty() ? schema
				: this.document.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1));
	}

	private static JsonNode json(JsonNode content) {
		return content.path("content").path("application/json").path("schema");
	}

	@Test
	void theStartRequestHasOneShapePerTypeWithTheInputRecordsProperties() {
		JsonNode start = paths().path("/durable/workflows").path("post");
		assertThat(start.path("requestBody").path("required").asBoolean()).isTrue();
		JsonNode oneOf = json(start.path("requestBody")).path("oneOf");
		assertThat(oneOf.isArray()).isTrue();
		JsonNode claim = null;
		for (JsonNode shape : oneOf) {
			JsonNode resolved = resolve(shape);
			if (resolved.path("properties").path("type").path("enum").toString().equals("[\"claim\"]")) {
				claim = resolved;
			}
		}
		assertThat(claim).as("the start request of 'claim'").isNotNull();
		JsonNode input = resolve(claim.path("properties").path("input"));
		assertThat(input.path("properties").has("policy")).isTrue();
		assertThat(input.path("properties").has("amount")).isTrue();
		assertThat(input.path("properties").path("documents").path("items").toString()).contains("string");
		assertThat(json(start.path("requestBody")).path("discriminator").path("propertyName").asString())
			.isEqualTo("type");
		assertThat(start.path("responses").has("201")).isTrue();
		assertThat(start.path("responses").path("201").path("headers").has("Location")).isTrue();
	}

	@Test
	void theResultIsTheResultRecord() {
		JsonNode result = paths().path("/durable/workflows/{workflowId}/result").path("get").path("responses");
		JsonNode value = resolve(json(result.path("200")).path("properties").path("result"));
		assertThat(value.path("properties").has("approved")).isTrue();
		assertThat(value.path("properties").has("reason")).isTrue();
		assertThat(result.has("202")).isTrue();
		// one client type reads both answers: a client generated for the 200 answer reads
		// the 202's RUNNING too
		assertThat(json(result.path("200")).path("properties").path("status").path("enum").toString())
			.contains("RUNNING", "COMPLETED", "FAILED", "CANCELED", "TERMINATED", "TIMED_OUT");
		assertThat(json(result.path("202")).path("properties").path("status").path("enum").toString())
			.isEqualTo("[\"RUNNING\"]");
	}

	@Test
	void eachHandlerHasItsOperationWithItsPayloadAndResultTypes() {
		JsonNode signal = paths().path("/durable/workflows/{workflowId}/signals/addEvidence").path("post");
		assertThat(resolve(json(signal.path("requestBody"))).path("properties").has("url")).isTrue();
		assertThat(signal.path("responses").has("202")).isTrue();
		// a name declared for Workflows.receive by a Signal field, with its payload type
		JsonNode appeal = paths().path("/durable/workflows/{workflowId}/signals/appeal").path("post");
		assertThat(resolve(json(appeal.path("requestBody"))).path("properties").has("kind")).isTrue();

		assertThat(signal.path("requestBody").path("content").propertyNames()).containsExactly("application/json");
		// a string payload: the text itself first (what code generators then send), or
		// JSON
		JsonNode comment = paths().path("/durable/workflows/{workflowId}/signals/comment").path("post");
		assertThat(comment.path("requestBody").path("content").propertyNames()).containsExactly("text/plain",
				"application/json");

		JsonNode query = paths().path("/durable/workflows/{workflowId}/queries/stage");
		assertThat(query.has("get")).isTrue();
		assertThat(query.path("get").has("requestBody")).isFalse();
		assertThat(resolve(json(query.path("get").path("responses").path("200"))).path("enum").toString())
			.contains("OPEN", "DECIDED");

		JsonNode update = paths().path("/durable/workflows/{workflowId}/updates/decide").path("post");
		assertThat(resolve(json(update.path("requestBody"))).path("properties").has("approved")).isTrue();
		JsonNode completed = json(update.path("responses").path("200"));
		assertThat(resolve(completed.path("properties").path("result")).path("properties").has("reason")).isTrue();
		assertThat(update.path("responses").has("202")).isTrue();
	}

	@Test
	void errorsAreTheStatusesTheEndpointsAnswerWithTheProblemSchema() {
		Map<String, List<String>> expected = Map.of("/durable/workflows|post",
				List.of("400", "403", "409", "415", "503"), "/durable/workflows/{workflowId}|get",
				List.of("404", "503"), "/durable/workflows/{workflowId}/signals/addEvidence|post",
				List.of("401", "403", "404", "409"), "/durable/workflows/{workflowId}/updates/decide|post",
				List.of("404", "409", "422"), "/durable/workflows/{workflowId}/queries/stage|get",
				List.of("404", "422"), "/durable/schedules|post", List.of("409"), "/durable/batches|post",
				List.of("400", "401", "403", "409"), "/durable/batches/{batchId}|get", List.of("404"),
				"/durable/batches/{batchId}/cancel|post", List.of("403", "404"));
		expected.forEach((operation, statuses) -> {
			String[] pathAndMethod = operation.split("\\|");
			JsonNode responses = paths().path(pathAndMethod[0]).path(pathAndMethod[1]).path("responses");
			for (String status : statuses) {
				assertThat(responses.path(status)
					.path("content")
					.path("application/problem+json")
					.path("schema")
					.path("$ref")
					.asString("")).as(operation + " " + status).isEqualTo(PROBLEM);
			}
		});
		JsonNode problem = this.document.path("components").path("schemas").path("WorkflowProblem").path("properties");
		assertThat(problem.propertyNames()).contains("type", "title", "status", "detail", "instance", "code");
	}

	@Test
	void theBatchEndpointsDescribeTheirRequestAndTheBatch() {
		JsonNode start = paths().path("/durable/batches").path("post");
		assertThat(start.path("tags").toString()).contains("batches");
		JsonNode request = resolve(json(start.path("requestBody")));
		assertThat(request.path("properties").propertyNames()).contains("batchId", "operation", "filter", "reason",
				"signal", "resetTo", "confirmAll");
		assertThat(request.path("properties").path("operation").path("enum").toString()).contains("CANCEL", "TERMINATE",
				"SIGNAL", "RESET");
		assertThat(start.path("responses").has("202")).isTrue();
		assertThat(start.path("responses").has("200")).isTrue();
		JsonNode batch = resolve(json(start.path("responses").path("202")));
		assertThat(batch.path("properties").propertyNames()).contains("batchId", "operation", "state", "filter",
				"reason", "total", "processed", "succeeded", "skipped", "failed", "recentFailures", "createdAt",
				"closedAt");
		assertThat(resolve(batch.path("properties").path("filter")).path("properties").propertyNames()).contains("type",
				"status", "query", "startedFrom", "startedTo", "workflowIdPrefix");
		assertThat(paths().path("/durable/batches").path("get").path("responses").has("200")).isTrue();
	}

	@Test
	void theEventAndStreamEndpointsAreDescribed() {
		JsonNode event = paths().path("/durable/workflows/{workflowId}/events/{key}").path("get");
		assertThat(event.path("operationId").asString("")).isEqualTo("workflowEvent");
		assertThat(json(event.path("responses").path("200")).path("properties").propertyNames()).contains("key",
				"value");
		assertThat(event.path("responses").path("404").path("description").asString("")).contains("EVENT_NOT_SET",
				"WORKFLOW_NOT_FOUND");
		assertThat(event.path("parameters").toString()).contains("\"wait\"");
		JsonNode stream = paths().path("/durable/workflows/{workflowId}/streams/{key}").path("get");
		assertThat(stream.path("operationId").asString("")).isEqualTo("workflowStream");
		assertThat(stream.path("responses").path("200").path("content").has("text/event-stream")).isTrue();
		assertThat(stream.path("responses").path("400").path("description").asString("")).contains("INVALID_OFFSET",
				"INVALID_KEY");
		assertThat(stream.path("parameters").toString()).contains("Last-Event-ID", "\"from\"");
		// the schema springdoc inferred from the stream's return type is no part of the
		// API
		assertThat(this.document.path("components").path("schemas").has("SseEmitter")).isFalse();
	}

	@Test
	void noGetHasABodyNoDashboardIsListedAndEveryOperationIsTagged() {
		List<String> untagged = new ArrayList<>();
		List<String> getsWithBody = new ArrayList<>();
		for (Map.Entry<String, JsonNode> path : paths().properties()) {
			for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
				String name = operation.getKey() + " " + path.getKey();
				if (!operation.getValue().path("tags").isArray() || operation.getValue().path("tags").isEmpty()) {
					untagged.add(name);
				}
				if (operation.getKey().equals("get") && operation.getValue().has("requestBody")) {
					getsWithBody.add(name);
				}
			}
		}
		assertThat(untagged).isEmpty();
		assertThat(getsWithBody).isEmpty();
		assertThat(paths().propertyNames()).noneMatch((p) -> p.startsWith("/durable/ui"));
		assertThat(paths().path("/durable/queues").path("get").path("tags").toString()).contains("queues");
		assertThat(paths().path("/durable/schedules").path("post").path("tags").toString()).contains("schedules");
		assertThat(paths().path("/durable/activities/complete").path("post").path("tags").toString())
			.contains("activities");
	}

}
