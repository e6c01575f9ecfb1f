package dev.durable.workflow.web;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A sweep of bad requests over every generated endpoint: each answers a 4xx problem with
 * a stable code whose body names no class, package or exception and holds no stack trace
 * (same application as WorkflowRestApiTest).
 */
class ProblemBodiesLeakNothingTest extends RestApiTestSupport {

	private static final String ORDER = "\"input\":{\"item\":\"tea\",\"quantity\":1}";

	private static final String SCHEDULE = "{\"scheduleId\":\"leak-s\",\"spec\":{\"cronExpression\":\"0 2 * * *\"},"
			+ "\"action\":{\"workflowType\":\"order\"," + ORDER + "}";

	private static final List<String> LEAKS = List.of("dev.durable", "java.", "javax.", "jakarta.", "tools.jackson",
			"org.springframework", "$", "Exception", "\tat ", "Caused by");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static List<MockHttpServletRequestBuilder> badRequests() {
		List<MockHttpServletRequestBuilder> requests = new ArrayList<>();
		// list
		for (String[] param : new String[][] { { "pageSize", "abc" }, { "pageSize", "0" }, { "pageSize", "-5" },
				{ "pageSize", "99999999999" }, { "startedFrom", "yesterday" }, { "startedTo", "2026-13-01T00:00:00Z" },
				{ "status", "NOPE" }, { "status", " " }, { "pageToken", "garbage" }, { "query", "amount >>= 1" },
				{ "query", "amount = 'open" }, { "query", "x IN (" }, { "workflowIdPrefix", "a\u0000" } }) {
			requests.add(get("/durable/workflows").param(param[0], param[1]));
		}
		// one run
		requests.add(get("/durable/workflows/leak-target").param("runId", "zzz"));
		requests.add(get("/durable/workflows/leak-target/history").param("runId", "1234"));
		requests.add(get("/durable/workflows/leak-target/result").param("wait", "forever"));
		requests.add(get("/durable/workflows/leak-target/result").param("wait", "-PT1S"));
		requests.add(get("/durable/workflows/leak-target/result").param("runId", "0-0-0-0-x"));
		requests.add(get("/durable/workflows/no-such-run"));
		requests.add(get("/durable/workflows/bad id!"));
		// start
		for (String body : new String[] { "{", "[1]", "\"order\"", "null", "{}", "{\"type\":\"nope\"}",
				"{\"type\":\"order\",\"input\":{\"item\":1,\"quantity\":\"many\"}}",
				"{\"type\":\"order\",\"input\":{\"item\":\"x\",\"quantity\":1,\"extra\":true}}",
				"{\"type\":\"order\",\"input\":\"tea\"}", "{\"type\":\"order\",\"input\":[1]}",
				"{\"type\":\"order\"," + ORDER + ",\"options\":{\"runTimout\":\"PT1H\"}}",
				"{\"type\":\"order\"," + ORDER + ",\"options\":{\"runTimeout\":\"PT0S\"}}",
				"{\"type\":\"order\"," + ORDER + ",\"options\":{\"runTimeout\":\"soon\"}}",
				"{\"type\":\"order\"," + ORDER + ",\"options\":{\"idConflictPolicy\":\"NOPE\"}}",
				"{\"type\":\"order\"," + ORDER + ",\"options\":{\"idConflictPolicy\":0}}",
				"{\"type\":\"order\"," + ORDER + ",\"options\":{\"searchAttributes\":[1]}}",
				"{\"type\":\"order\"," + ORDER + ",\"options\":{\"memo\":\"m\"}}",
				"{\"type\":\"order\"," + ORDER + ",\"options\":{\"requestId\":{}}}",
				"{\"type\":\"order\"," + ORDER + ",\"options\":{\"retryPolicy\":{\"maximumAttempts\":\"x\"}}}",
				"{\"type\":\"order\"," + ORDER + ",\"workflowId\":[\"x\"]}",
				"{\"type\":\"order\"," + ORDER + ",\"workflowId\":\"bad id!\"}",
				"{\"type\":\"order\"," + ORDER + ",\"signal\":{\"payload\":1}}",
				"{\"type\":\"order\"," + ORDER + ",\"signal\":{\"name\":\"addNote\",\"payload\":{\"a\":1}}}",
				"{\"type\":\"order\"," + ORDER + ",\"extra\":1}" }) {
			requests.add(json(post("/durable/workflows"), body));
		}
		requests.add(post("/durable/workflows").contentType(MediaType.TEXT_PLAIN).content("{}"));
		requests.add(post("/durable/workflows").contentType("nonsense").content("{}"));
		// lifecycle
		for (String action : new String[] { "cancel", "terminate", "reset" }) {
			for (String body : new String[] { "{", "[]", "{\"eventId\":\"abc\"}", "{\"reason\":{}}", "{\"unknown\":1}",
					"{\"eventId\":1.5}" }) {
				requests.add(json(post("/durable/workflows/leak-target/" + action), body));
			}
		}
		requests.add(json(post("/durable/workflows/leak-target/reset"), "{}"));
		// messages
		requests.add(json(post("/durable/workflows/leak-target/signals/addNote"), "{\"a\":1}"));
		requests.add(json(post("/durable/workflows/leak-target/signals/addNote"), "[1"));
		requests.add(json(post("/durable/workflows/leak-target/queries/notes"), "1"));
		requests.add(get("/durable/workflows/leak-target/queries/nothing"));
		requests.add(json(post("/durable/workflows/leak-target/updates/setQuantity"), "\"lots\""));
		requests.add(json(post("/durable/workflows/leak-target/updates/setQuantity"), "{\"n\":1}"));
		requests.add(json(post("/durable/workflows/leak-target/updates/setQuantity"), "1").param("waitFor", "SOON"));
		requests.add(json(post("/durable/workflows/leak-target/updates/setQuantity"), "-1"));
		requests.add(json(post("/durable/workflows/leak-target/updates/nothing"), "1"));
		requests.add(get("/durable/workflows/leak-target/updates/never").param("wait", "abc"));
		requests.add(get("/durable/workflows/leak-target/updates/never"));
		// schedules
		for (String body : new String[] { "{", "{}", SCHEDULE + ",\"overlapPolicy\":\"NOPE\"}",
				SCHEDULE.replace("{\"cronExpression\":\"0 2 * * *\"}", "\"daily\"") + "}",
				SCHEDULE.replace("0 2 * * *", "every night") + "}",
				SCHEDULE.replace("\"quantity\":1", "\"quantity\":\"one\"") + "}",
				SCHEDULE + ",\"catchupWindow\":\"x\"}", SCHEDULE + ",\"paused\":\"yes\"}", SCHEDULE + ",\"unknown\":1}",
				SCHEDULE.replace("\"leak-s\"", "[1]") + "}" }) {
			requests.add(json(post("/durable/schedules"), body));
		}
		requests.add(json(put("/durable/schedules/leak-s"), "{\"spec\":1}"));
		requests.add(json(post("/durable/schedules/leak-s/pause"), "{\"note\":[1]}"));
		requests.add(json(post("/durable/schedules/leak-s/trigger"), "{\"overlapPolicy\":\"NOPE\"}"));
		requests.add(json(post("/durable/schedules/leak-s/backfill"), "{\"start\":\"yesterday\"}"));
		requests.add(json(post("/durable/schedules/leak-s/backfill"), "{\"start\":\"2026-01-01T00:00:00Z\"}"));
		requests.add(get("/durable/schedules/leak-s"));
		requests.add(delete("/durable/schedules/leak-s"));
		// activities
		for (String body : new String[] { "{\"token\":\"garbage\"}", "{\"token\":1}", "{\"token\":\"t\",\"x\":1}",
				"{\"token\":\"t\",\"failure\":\"x\"}", "{\"token\":\"t\",\"failure\":{\"nonRetryable\":\"no\"}}" }) {
			requests.add(json(post("/durable/activities/complete"), body));
			requests.add(json(post("/durable/activities/fail"), body));
		}
		// routes and methods no endpoint takes
		requests.add(get("/durable/nope"));
		requests.add(get("/durable/workflows/leak-target/nope"));
		requests.add(delete("/durable/workflows"));
		requests.add(put("/durable/workflows/leak-target"));
		requests.add(patch("/durable/schedules/leak-s"));
		requests.add(get("/durable/workflows/leak-target/signals/addNote"));
		requests.add(get("/durable/activities/complete"));
		return requests;
	}

	/**
	 * The body without its {@code failure} member: a rejected update carries the failure
	 * its validator threw, the application's own data (its type is what the application
	 * threw, e.g. {@code java.lang.IllegalArgumentException}, the name retry policies
	 * match), not the API's.
	 */
	private static String withoutFailure(String body) {
		if (!body.startsWith("{")) {
			return body;
		}
		ObjectNode json = (ObjectNode) JSON.readTree(body);
		json.remove("failure");
		return JSON.writeValueAsString(json);
	}

	@Test
	void badRequestsAnswerCleanProblemsWithACode() throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"leak-target\"," + ORDER + "}"))
			.andExpect(status().is(org.hamcrest.Matchers.oneOf(201, 409)));
		List<String> failures = new ArrayList<>();
		for (MockHttpServletRequestBuilder request : badRequests()) {
			MockHttpServletResponse response = this.mvc.perform(request).andReturn().getResponse();
			String what = request.buildRequest(new org.springframework.mock.web.MockServletContext()).getMethod() + " "
					+ request.buildRequest(new org.springframework.mock.web.MockServletContext()).getRequestURI();
			String body = withoutFailure(response.getContentAsString());
			if (response.getStatus() < 400 || response.getStatus() >= 500) {
				failures.add(what + ": status " + response.getStatus() + " " + body);
				continue;
			}
			if (!"application/problem+json".equals(response.getContentType()) || !body.contains("\"code\":\"")) {
				failures.add(what + ": not a problem with a code: " + response.getContentType() + " " + body);
				continue;
			}
			for (String leak : LEAKS) {
				if (body.contains(leak)) {
					failures.add(what + ": names '" + leak + "': " + body);
				}
			}
		}
		assertThat(failures).isEmpty();
	}

}
