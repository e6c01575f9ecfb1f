package dev.durable.workflow.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The generated REST endpoints, each success and each error code, against a real embedded
 * PostgreSQL.
 */
class WorkflowRestApiTest extends RestApiTestSupport {

	private void start(String workflowId, String item) throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"" + workflowId + "\",\"input\":{\"item\":\"" + item
							+ "\",\"quantity\":2}}"))
			.andExpect(status().isCreated());
	}

	@Test
	void listsTheRegisteredTypesWithTheirHandlers() throws Exception {
		this.mvc.perform(get("/durable/workflow-types"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[?(@.type == 'order')].signals[*]")
				.value(org.hamcrest.Matchers.containsInAnyOrder("addNote", "finish")))
			.andExpect(jsonPath("$[?(@.type == 'order')].queries[*]")
				.value(org.hamcrest.Matchers.containsInAnyOrder("broken", "notes", "quantity")))
			.andExpect(jsonPath("$[?(@.type == 'order')].updates[*]")
				.value(org.hamcrest.Matchers.containsInAnyOrder("explode", "setQuantity")));
	}

	@Test
	void startSignalQueryUpdateAndResult() throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"order-1\",\"input\":{\"item\":\"tea\",\"quantity\":2}}"))
			.andExpect(status().isCreated())
			.andExpect(header().string("Location", org.hamcrest.Matchers.endsWith("/durable/workflows/order-1")))
			.andExpect(jsonPath("$.workflowId").value("order-1"))
			.andExpect(jsonPath("$.runId").isNotEmpty());
		this.mvc.perform(get("/durable/workflows/order-1/result"))
			.andExpect(status().isAccepted())
			.andExpect(header().exists("Retry-After"))
			.andExpect(jsonPath("$.status").value("RUNNING"));
		this.mvc
			.perform(json(post("/durable/workflows/order-1/signals/addNote"), "\"fragile\"").header("Idempotency-Key",
					"note-1"))
			.andExpect(status().isAccepted());
		this.mvc
			.perform(json(post("/durable/workflows/order-1/signals/addNote"), "\"fragile\"").header("Idempotency-Key",
					"note-1"))
			.andExpect(status().isAccepted());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/order-1/queries/notes"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$").value(org.hamcrest.Matchers.contains("fragile"))));
		this.mvc.perform(json(post("/durable/workflows/order-1/updates/setQuantity"), "5"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.stage").value("COMPLETED"))
			.andExpect(jsonPath("$.result").value(5));
		this.mvc.perform(post("/durable/workflows/order-1/queries/quantity"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$").value(5));
		this.mvc.perform(post("/durable/workflows/order-1/signals/finish")).andExpect(status().isAccepted());
		this.mvc.perform(get("/durable/workflows/order-1/result").param("wait", "PT10S"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.status").value("COMPLETED"))
			.andExpect(jsonPath("$.result").value("5 x tea for 15 notes [fragile]"));
		this.mvc.perform(get("/durable/workflows/order-1"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.status").value("COMPLETED"))
			.andExpect(jsonPath("$.workflowType").value("order"));
		this.mvc.perform(get("/durable/workflows/order-1/history"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[0].type").value("WORKFLOW_STARTED"));
		problem(json(post("/durable/workflows/order-1/signals/addNote"), "\"late\""), 409, "WORKFLOW_CLOSED");
	}

	@Test
	void signalWithStartAndIdempotentStarts() throws Exception {
		String body = "{\"type\":\"order\",\"workflowId\":\"order-sws\",\"input\":{\"item\":\"ink\",\"quantity\":1},"
				+ "\"signal\":{\"name\":\"addNote\",\"payload\":\"first\"}}";
		String first = this.mvc.perform(json(post("/durable/workflows"), body).header("Idempotency-Key", "req-1"))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/order-sws/queries/notes"))
			.andExpect(jsonPath("$").value(org.hamcrest.Matchers.contains("first"))));
		String second = this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"order-sws\",\"input\":{\"item\":\"ink\",\"quantity\":1}}")
				.header("Idempotency-Key", "req-1"))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(second).isEqualTo(first);
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"order-sws\",\"input\":{\"item\":\"ink\",\"quantity\":1}}"), 409,
				"WORKFLOW_ALREADY_STARTED");
	}

	@Test
	void badStartsAreRefusedWithTheirCodeAndStartNothing() throws Exception {
		problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"bad-1\",\"input\":{"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"bad-1\",\"input\":{\"item\":\"x\",\"quantity\":\"many\"}}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"), "{\"type\":\"nope\",\"workflowId\":\"bad-1\",\"input\":null}"), 400,
				"UNKNOWN_TYPE");
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"bad id!\",\"input\":{\"item\":\"x\",\"quantity\":1}}"), 400,
				"INVALID_ID");
		problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"bad-1\",\"input\":{\"item\":\""
				+ "x".repeat(3000) + "\",\"quantity\":1}}"), 413, "PAYLOAD_TOO_LARGE");
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"bad-1\",\"input\":{\"item\":\"x\",\"quantity\":1},"
						+ "\"options\":{\"runTimeout\":\"PT0S\"}}"),
				400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"), "[1, 2]"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"bad-1\",\"input\":{\"item\":\"x\",\"quantity\":1},"
						+ "\"options\":{\"runTimout\":\"PT1H\"}}"),
				400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows/bad-1"), 404, "WORKFLOW_NOT_FOUND");
		problem(get("/durable/workflows/bad-1").param("runId", "not-a-uuid"), 400, "INVALID_PAYLOAD");
	}

	@Test
	void aStringPayloadMayBeTheTextItself() throws Exception {
		start("order-text", "ink");
		// what a client generated from the OpenAPI document sends for a string payload
		this.mvc
			.perform(post("/durable/workflows/order-text/signals/addNote").contentType(MediaType.TEXT_PLAIN)
				.content("handle \"with care\""))
			.andExpect(status().isAccepted());
		this.mvc
			.perform(post("/durable/workflows/order-text/signals/addNote").contentType(MediaType.TEXT_PLAIN)
				.content("42"))
			.andExpect(status().isAccepted());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/order-text/queries/notes"))
			.andExpect(jsonPath("$").value(org.hamcrest.Matchers.contains("handle \"with care\"", "42"))));
		// a handler that takes no string still takes JSON only
		problem(post("/durable/workflows/order-text/updates/setQuantity").contentType(MediaType.TEXT_PLAIN)
			.content("7"), 415, "INVALID_PAYLOAD");
		// the size limit holds for the text as for JSON, and nothing is recorded
		problem(post("/durable/workflows/order-text/signals/addNote").contentType(MediaType.TEXT_PLAIN)
			.content("x".repeat(3000)), 413, "PAYLOAD_TOO_LARGE");
		this.mvc.perform(get("/durable/workflows/order-text/queries/notes")).andExpect(jsonPath("$.length()").value(2));
	}

	@Test
	void badMessagesAreRefusedWithTheirCode() throws Exception {
		start("order-msg", "pen");
		problem(json(post("/durable/workflows/order-msg/signals/addNote"), "{\"not\":\"a string\"}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/workflows/order-msg/signals/addNote"), "\"x"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows/nobody/signals/addNote"), "\"x\""), 404, "WORKFLOW_NOT_FOUND");
		problem(get("/durable/workflows/order-msg/queries/nothing"), 404, "UNKNOWN_HANDLER");
		await().ignoreExceptions()
			.untilAsserted(() -> this.mvc.perform(get("/durable/workflows/order-msg/queries/notes"))
				.andExpect(status().isOk()));
		problem(get("/durable/workflows/order-msg/queries/broken"), 422, "QUERY_FAILED");
		problem(json(post("/durable/workflows/order-msg/updates/nothing"), "1"), 404, "UNKNOWN_HANDLER");
		problem(json(post("/durable/workflows/order-msg/updates/setQuantity"), "-1"), 422, "UPDATE_REJECTED");
		problem(json(post("/durable/workflows/order-msg/updates/setQuantity"), "\"lots\""), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows/order-msg/updates/explode"), "\"on purpose\"").header("Update-Id",
				"boom-1"), 409, "UPDATE_FAILED");
		// the outcome of an update is kept by its id
		problem(get("/durable/workflows/order-msg/updates/boom-1"), 409, "UPDATE_FAILED");
		problem(get("/durable/workflows/order-msg/updates/never-sent"), 404, "WORKFLOW_NOT_FOUND");
		this.mvc
			.perform(json(post("/durable/workflows/order-msg/updates/setQuantity"), "7").header("Update-Id", "qty-7")
				.param("waitFor", "ACCEPTED"))
			.andExpect(status().is(org.hamcrest.Matchers.oneOf(200, 202)));
		this.mvc.perform(get("/durable/workflows/order-msg/updates/qty-7").param("wait", "PT10S"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.result").value(7));
	}

	@Test
	void failuresCancelTerminateAndReset() throws Exception {
		start("order-bomb", "bomb");
		this.mvc.perform(get("/durable/workflows/order-bomb/result").param("wait", "PT10S"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.status").value("FAILED"))
			.andExpect(jsonPath("$.failure.type").value("Forbidden"))
			.andExpect(jsonPath("$.failure.message").value("cannot ship a bomb"));

		start("order-cancel", "cup");
		this.mvc.perform(json(post("/durable/workflows/order-cancel/cancel"), "{\"reason\":\"customer\"}"))
			.andExpect(status().isAccepted());
		this.mvc.perform(get("/durable/workflows/order-cancel/result").param("wait", "PT10S"))
			.andExpect(jsonPath("$.status").value("CANCELED"));

		start("order-stop", "mug");
		this.mvc.perform(json(post("/durable/workflows/order-stop/terminate"), "{\"reason\":\"ops\"}"))
			.andExpect(status().isNoContent());
		problem(json(post("/durable/workflows/order-stop/terminate"), "{\"reason\":\"again\"}"), 409,
				"WORKFLOW_CLOSED");
		MvcResult reset = this.mvc
			.perform(json(post("/durable/workflows/order-stop/reset"), "{\"eventId\":1,\"reason\":\"try again\"}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.runId").isNotEmpty())
			.andReturn();
		assertThat(reset.getResponse().getContentAsString()).contains("order-stop");
		this.mvc.perform(get("/durable/workflows/order-stop")).andExpect(jsonPath("$.status").value("RUNNING"));
		problem(json(post("/durable/workflows/order-stop/reset"), "{\"eventId\":999}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows/order-stop/reset"), "{}"), 400, "INVALID_PAYLOAD");
	}

	@Test
	void listsRunsByTypeStatusAndSearchAttributes() throws Exception {
		for (int i = 1; i <= 3; i++) {
			this.mvc
				.perform(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"listed-" + i
						+ "\",\"input\":{\"item\":\"cup\",\"quantity\":" + i + "},\"options\":{\"searchAttributes\":"
						+ "{\"customer\":\"c" + (i % 2) + "\",\"amount\":" + (i * 10) + "}}}"))
				.andExpect(status().isCreated());
		}
		this.mvc
			.perform(get("/durable/workflows").param("type", "order")
				.param("status", "RUNNING")
				.param("query", "customer = 'c1' AND amount >= 20"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.executions[*].workflowId").value(org.hamcrest.Matchers.contains("listed-3")))
			.andExpect(jsonPath("$.executions[0].searchAttributes.amount").value(30));
		String first = this.mvc
			.perform(get("/durable/workflows").param("query", "customer IN ('c0', 'c1')").param("pageSize", "2"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.executions.length()").value(2))
			.andReturn()
			.getResponse()
			.getContentAsString();
		String token = first.replaceAll(".*\"nextPageToken\":\"([^\"]+)\".*", "$1");
		this.mvc
			.perform(get("/durable/workflows").param("query", "customer IN ('c0', 'c1')")
				.param("pageSize", "2")
				.param("pageToken", token))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.executions.length()").value(1))
			.andExpect(jsonPath("$.nextPageToken").doesNotExist());
		problem(get("/durable/workflows").param("query", "customer == 'c1'"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows").param("status", "SLEEPING"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows").param("pageToken", "not-a-token"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows").param("pageSize", "0"), 400, "INVALID_PAYLOAD");
	}

	@Test
	void servesTheDashboardPageWiredToTheBasePath() throws Exception {
		this.mvc.perform(get("/durable/ui"))
			.andExpect(status().isOk())
			.andExpect(header().string("Content-Type", org.hamcrest.Matchers.startsWith("text/html")))
			.andExpect(org.springframework.test.web.servlet.result.MockMvcResultMatchers.content()
				.string(org.hamcrest.Matchers.allOf(org.hamcrest.Matchers.containsString("\"basePath\":\"/durable\""),
						org.hamcrest.Matchers.containsString("\"readOnly\":false"))));
	}

	@Test
	void resultWaitIsBounded() throws Exception {
		start("order-wait", "pot");
		long started = System.nanoTime();
		this.mvc.perform(get("/durable/workflows/order-wait/result").param("wait", "PT0.2S"))
			.andExpect(status().isAccepted());
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
	}

}
