package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Input the generated endpoints refuse with a 4xx problem that changes nothing: huge or
 * negative waits, blank statuses, NUL characters on their way to the database, ids of the
 * wrong JSON type, bodies that are not JSON (same application as WorkflowRestApiTest).
 */
class RestInputValidationTest extends RestApiTestSupport {

	private static final String ORDER = "\"input\":{\"item\":\"tea\",\"quantity\":1}";

	private void start(String workflowId, String item) throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"" + workflowId + "\",\"input\":{\"item\":\"" + item
							+ "\",\"quantity\":2}}"))
			.andExpect(status().isCreated());
	}

	private int runsWithPrefix(String prefix) throws Exception {
		String body = this.mvc
			.perform(get("/durable/workflows").param("workflowIdPrefix", prefix).param("pageSize", "500"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		return body.split("\"workflowId\"", -1).length - 1;
	}

	private int runsOfType(String type) throws Exception {
		String body = this.mvc.perform(get("/durable/workflows").param("type", type).param("pageSize", "500"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		return body.split("\"workflowId\"", -1).length - 1;
	}

	@Test
	void hugeWaitsAreCappedAndNegativeOrMalformedOnesRefused() throws Exception {
		start("wait-bomb", "bomb");
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/wait-bomb/result"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.status").value("FAILED")));
		for (String huge : new String[] { "PT999999999H", "PT2562047H", "P99999999D" }) {
			this.mvc.perform(get("/durable/workflows/wait-bomb/result").param("wait", huge))
				.andExpect(status().isOk())
				.andExpect(jsonPath("$.status").value("FAILED"));
		}
		problem(get("/durable/workflows/wait-bomb/result").param("wait", "-PT1S"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows/wait-bomb/result").param("wait", "PT99999999999999999999H"), 400,
				"INVALID_PAYLOAD");
		problem(get("/durable/workflows/wait-bomb/result").param("wait", "soon"), 400, "INVALID_PAYLOAD");

		start("wait-update", "pen");
		this.mvc
			.perform(json(post("/durable/workflows/wait-update/updates/setQuantity"), "3").header("Update-Id",
					"wait-qty"))
			.andExpect(status().isOk());
		this.mvc.perform(get("/durable/workflows/wait-update/updates/wait-qty").param("wait", "PT999999999H"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.result").value(3));
		problem(get("/durable/workflows/wait-update/updates/wait-qty").param("wait", "-PT1S"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows/wait-update/updates/wait-qty").param("wait", "later"), 400, "INVALID_PAYLOAD");
	}

	@Test
	void hugeDurationsInBodiesAreNeverA500() throws Exception {
		int n = 0;
		for (String option : new String[] { "runTimeout", "executionTimeout", "taskTimeout", "startDelay" }) {
			for (String huge : new String[] { "PT999999999H", "PT2562047H", "P99999999D" }) {
				int status = this.mvc
					.perform(json(post("/durable/workflows"),
							"{\"type\":\"order\",\"workflowId\":" + "\"huge-" + n++ + "\"," + ORDER + ",\"options\":{\""
									+ option + "\":\"" + huge + "\"}}"))
					.andReturn()
					.getResponse()
					.getStatus();
				assertThat(status).as(option + " " + huge).isIn(201, 400);
			}
		}
		for (String field : new String[] { "\"catchupWindow\":\"PT999999999H\"",
				"\"spec\":{\"interval\":\"PT999999999H\"}",
				"\"spec\":{\"interval\":\"PT1H\",\"jitter\":\"PT999999999H\"}" }) {
			String schedule = "{\"scheduleId\":\"huge-s-" + n++ + "\",\"spec\":{\"cronExpression\":\"0 2 * * *\"},"
					+ "\"action\":{\"workflowType\":\"order\"," + ORDER + "}," + field + "}";
			if (field.startsWith("\"spec\"")) {
				schedule = schedule.replace("\"spec\":{\"cronExpression\":\"0 2 * * *\"},", "");
			}
			int status = this.mvc.perform(json(post("/durable/schedules"), schedule))
				.andReturn()
				.getResponse()
				.getStatus();
			assertThat(status).as(field).isIn(201, 400);
		}
	}

	@Test
	void blankOrUnknownStatusesAreRefused() throws Exception {
		problem(get("/durable/workflows").param("status", " "), 400, "INVALID_PAYLOAD");
		// an empty value (what an HTML form sends for "any") filters nothing
		this.mvc.perform(get("/durable/workflows").param("status", "")).andExpect(status().isOk());
		problem(get("/durable/workflows").param("status", "RUNNING", " "), 400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows").param("status", "sleeping"), 400, "INVALID_PAYLOAD");
		this.mvc.perform(get("/durable/workflows").param("status", "running", "COMPLETED")).andExpect(status().isOk());
		problem(json(post("/durable/workflows/nobody/updates/setQuantity"), "1").param("waitFor", "SOON"), 400,
				"INVALID_PAYLOAD");
	}

	@Test
	void nulCharactersNeverReachTheDatabase() throws Exception {
		start("nul-target", "cup");
		problem(get("/durable/workflows").param("workflowIdPrefix", "nul\u0000"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows").param("type", "order\u0000"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows").param("query", "customer = 'c\u0000'"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows").param("pageToken", "a\u0000b"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows/{id}", "nul\u0000id"), 400, "INVALID_ID");
		problem(get("/durable/workflows/{id}/history", "nul\u0000id"), 400, "INVALID_ID");
		problem(json(post("/durable/workflows/nul-target/signals/{name}", "add\u0000Note"), "\"x\""), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/workflows/nul-target/signals/addNote"), "\"x\"").header("Idempotency-Key",
				"k\u0000"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows/nul-target/updates/setQuantity"), "4").header("Update-Id", "u\u0000"),
				400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows/nul-target/updates/{id}", "u\u0000"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows/nul-target/cancel"), "{\"reason\":\"why\\u0000\"}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"nul-1\\u0000\"," + ORDER + "}"),
				400, "INVALID_ID");
		problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"nul-2\"," + ORDER + "}")
			.header("Idempotency-Key", "req\u0000"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"nul-3\"," + ORDER
				+ ",\"options\":{\"searchAttributes\":{\"customer\":\"c\\u0000\"}}}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"nul-4\"," + ORDER
				+ ",\"options\":{\"searchAttributes\":{\"cust\\u0000omer\":\"c\"}}}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"nul-5\"," + ORDER
				+ ",\"options\":{\"memo\":{\"note\":\"a\\u0000b\"}}}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"nul-6\"," + ORDER + ",\"options\":{\"requestId\":\"r\\u0000\"}}"),
				400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"nul-7\"," + ORDER
				+ ",\"signal\":{\"name\":\"add\\u0000Note\",\"payload\":\"x\"}}"), 400, "INVALID_PAYLOAD");
		String schedule = "{\"scheduleId\":\"nul-s\",\"spec\":{\"cronExpression\":\"0 2 * * *\"},\"action\":"
				+ "{\"workflowType\":\"order\"," + ORDER + ",\"workflowIdPrefix\":\"nul-s\"}}";
		problem(json(post("/durable/schedules"), schedule.replace("\"nul-s\",", "\"nul-s\\u0000\",")), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/schedules"), schedule.replace("\"nul-s\"}", "\"nul-\\u0000s\"}")), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/schedules"), schedule.replace("}}", "},\"note\":\"n\\u0000\"}")), 400,
				"INVALID_PAYLOAD");
		problem(get("/durable/schedules/{id}", "nul\u0000s"), 400, "INVALID_PAYLOAD");
		problem(json(put("/durable/schedules/{id}", "nul\u0000s"), schedule), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/schedules/nul-s/pause"), "{\"note\":\"n\\u0000\"}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/activities/fail"), "{\"token\":\"t\",\"failure\":{\"message\":\"m\\u0000\"}}"), 400,
				"INVALID_PAYLOAD");
		// nothing changed: no run, no schedule, the target run has no note
		assertThat(runsWithPrefix("nul-")).isOne();
		problem(get("/durable/schedules/nul-s"), 404, "SCHEDULE_NOT_FOUND");
		this.mvc.perform(get("/durable/workflows/nul-target/queries/notes"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$").isEmpty());
		// a payload is stored as bytes: a NUL in the input of a workflow is the
		// workflow's business
		this.mvc.perform(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"nul-payload\",\"input\":{\"item\":\"a\\u0000b\",\"quantity\":1}}"))
			.andExpect(status().isCreated());
	}

	@Test
	void aWorkflowIdThatIsNotAJsonStringStartsNothing() throws Exception {
		int before = runsOfType("order");
		for (String id : new String[] { "[\"typed-1\"]", "{\"a\":1}", "12345", "true", "1.5" }) {
			problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":" + id + "," + ORDER + "}"),
					400, "INVALID_ID");
		}
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"typed-2\"," + ORDER + ",\"options\":{\"requestId\":12345}}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"typed-3\"," + ORDER + ",\"options\":\"fast\"}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"typed-4\"," + ORDER + ",\"options\":[1]}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"typed-5\"," + ORDER + ",\"options\":{\"idConflictPolicy\":0}}"),
				400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"), "{\"type\":[\"order\"],\"workflowId\":\"typed-6\"," + ORDER + "}"),
				400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowid\":\"typed-7\"," + ORDER + "}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"typed-8\"," + ORDER + ",\"signal\":\"addNote\"}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"typed-9\"," + ORDER
				+ ",\"signal\":{\"name\":\"addNote\",\"payload\":\"x\",\"extra\":1}}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows/none/reset"), "{\"eventId\":1.5}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows/none/cancel"), "{\"reason\":7}"), 400, "INVALID_PAYLOAD");
		assertThat(runsOfType("order")).isEqualTo(before);
		assertThat(runsWithPrefix("typed-")).isZero();
		// JSON null is no id: the engine generates one
		this.mvc.perform(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":null," + ORDER + "}"))
			.andExpect(status().isCreated());
	}

	@Test
	void aBodyThatIsNotJsonIsRefusedWith415() throws Exception {
		String start = "{\"type\":\"order\",\"workflowId\":\"plain-1\"," + ORDER + "}";
		problem(post("/durable/workflows").contentType(MediaType.TEXT_PLAIN).content(start), 415, "INVALID_PAYLOAD");
		problem(post("/durable/workflows").content(start), 415, "INVALID_PAYLOAD");
		problem(post("/durable/workflows").contentType(MediaType.APPLICATION_FORM_URLENCODED).content("type=order"),
				415, "INVALID_PAYLOAD");
		problem(post("/durable/workflows").contentType("nonsense").content(start), 415, "INVALID_PAYLOAD");
		start("plain-target", "jar");
		// (a handler that takes a String also takes text/plain: see WorkflowRestApiTest)
		problem(post("/durable/workflows/plain-target/updates/setQuantity").contentType(MediaType.TEXT_PLAIN)
			.content("3"), 415, "INVALID_PAYLOAD");
		problem(post("/durable/workflows/plain-target/queries/notes").contentType(MediaType.TEXT_PLAIN).content("1"),
				415, "INVALID_PAYLOAD");
		problem(post("/durable/workflows/plain-target/cancel").contentType(MediaType.TEXT_PLAIN)
			.content("{\"reason\":\"x\"}"), 415, "INVALID_PAYLOAD");
		problem(post("/durable/schedules").contentType(MediaType.TEXT_PLAIN).content("{}"), 415, "INVALID_PAYLOAD");
		problem(put("/durable/schedules/x").contentType(MediaType.TEXT_PLAIN).content("{}"), 415, "INVALID_PAYLOAD");
		problem(post("/durable/schedules/x/pause").contentType(MediaType.TEXT_PLAIN).content("{}"), 415,
				"INVALID_PAYLOAD");
		assertThat(runsWithPrefix("plain-")).isOne();
		// JSON media types with a charset or a +json suffix are JSON; no body needs no
		// Content-Type
		this.mvc.perform(post("/durable/workflows").contentType("application/json;charset=UTF-8").content(start))
			.andExpect(status().isCreated());
		this.mvc
			.perform(post("/durable/workflows/plain-target/signals/addNote").contentType("application/vnd.notes+json")
				.content("\"x\""))
			.andExpect(status().isAccepted());
		this.mvc.perform(post("/durable/workflows/plain-target/signals/finish")).andExpect(status().isAccepted());
	}

}
