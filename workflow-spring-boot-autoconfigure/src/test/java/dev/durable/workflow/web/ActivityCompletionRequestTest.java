package dev.durable.workflow.web;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import tools.jackson.databind.json.JsonMapper;

import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.failure.ApplicationFailure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * What {@link ActivityCompletionController} hands to the completion client, and that a
 * bad request reaches it never: the controller alone, with a client that records its
 * calls (the endpoints against the engine are {@link ActivityCompletionEndpointTest}).
 */
class ActivityCompletionRequestTest {

	private final Recording client = new Recording();

	private final MockMvc mvc = mvc(false);

	private MockMvc mvc(boolean readOnly) {
		WebPayloads payloads = new WebPayloads(JsonMapper.builder().build(), 2048);
		return MockMvcBuilders
			.standaloneSetup(
					new ActivityCompletionController(this.client, payloads, new WebAccess("/durable", readOnly)))
			.setControllerAdvice(new WorkflowProblems())
			.addPlaceholderValue("durable.workflow.web.base-path", "/durable")
			.build();
	}

	/**
	 * Records each call; a token "bad" is malformed, a token "done" was already finished.
	 */
	static final class Recording implements ActivityCompletionClient {

		final List<String> calls = new CopyOnWriteArrayList<>();

		@Override
		public boolean complete(String taskToken, @Nullable Object result) {
			return record("complete " + taskToken + " " + result, taskToken);
		}

		@Override
		public boolean fail(String taskToken, ApplicationFailure failure) {
			return record("fail " + taskToken + " " + failure.getType() + " " + failure.getMessage() + " "
					+ failure.isNonRetryable() + " " + failure.getDetails(Object.class), taskToken);
		}

		@Override
		public boolean heartbeat(String taskToken, @Nullable Object details) {
			return record("heartbeat " + taskToken + " " + details, taskToken);
		}

		private boolean record(String call, String taskToken) {
			if (taskToken.equals("bad")) {
				throw new IllegalArgumentException("Malformed task token 'bad'");
			}
			this.calls.add(call);
			return !taskToken.equals("done");
		}

	}

	private static MockHttpServletRequestBuilder json(String path, String body) {
		return post(path).contentType(MediaType.APPLICATION_JSON).content(body);
	}

	private void expect(MockHttpServletRequestBuilder request, boolean applied) throws Exception {
		this.mvc.perform(request).andExpect(status().isOk()).andExpect(jsonPath("$.applied").value(applied));
	}

	private void problem(MockHttpServletRequestBuilder request, int status, String code) throws Exception {
		RestApiTestSupport.problem(this.mvc, request, status, code);
	}

	@Test
	void handsTheResultFailureAndDetailsToTheClientAndAnswersWhetherTheyApplied() throws Exception {
		expect(json("/durable/activities/complete", "{\"token\":\"t1\",\"result\":{\"receipt\":7,\"ok\":[true]}}"),
				true);
		expect(json("/durable/activities/complete", "{\"token\":\"done\"}"), false);
		expect(json("/durable/activities/fail", "{\"token\":\"t2\",\"failure\":{\"type\":\"Declined\","
				+ "\"message\":\"card declined\",\"nonRetryable\":true,\"details\":{\"code\":51}}}"), true);
		expect(json("/durable/activities/fail", "{\"token\":\"t3\",\"failure\":{\"message\":\"later\"}}"), true);
		expect(json("/durable/activities/heartbeat", "{\"token\":\"t4\",\"details\":[1,2]}"), true);
		expect(json("/durable/activities/heartbeat", "{\"token\":\"done\"}"), false);
		// a JSON media type with a charset or a +json suffix is JSON
		expect(post("/durable/activities/complete").contentType("application/json;charset=UTF-8")
			.content("{\"token\":\"t5\",\"result\":null}"), true);
		expect(post("/durable/activities/heartbeat").contentType("application/merge-patch+json")
			.content("{\"token\":\"t6\"}"), true);
		assertThat(this.client.calls).containsExactly("complete t1 {receipt=7, ok=[true]}", "complete done null",
				"fail t2 Declined card declined true {code=51}", "fail t3 ApplicationFailure later false null",
				"heartbeat t4 [1, 2]", "heartbeat done null", "complete t5 null", "heartbeat t6 null");
	}

	@Test
	void aMalformedTokenIsInvalidToken() throws Exception {
		problem(json("/durable/activities/complete", "{\"token\":\"bad\",\"result\":1}"), 400, "INVALID_TOKEN");
		problem(json("/durable/activities/fail", "{\"token\":\"bad\",\"failure\":{\"message\":\"x\"}}"), 400,
				"INVALID_TOKEN");
		problem(json("/durable/activities/heartbeat", "{\"token\":\"bad\"}"), 400, "INVALID_TOKEN");
	}

	@Test
	void badBodiesAreRefusedBeforeTheClientIsCalled() throws Exception {
		for (String path : List.of("/durable/activities/complete", "/durable/activities/fail",
				"/durable/activities/heartbeat")) {
			problem(json(path, "{\"token\":"), 400, "INVALID_PAYLOAD");
			problem(json(path, "{}"), 400, "INVALID_PAYLOAD");
			problem(json(path, "{\"token\":\"\"}"), 400, "INVALID_PAYLOAD");
			problem(json(path, "{\"token\":42}"), 400, "INVALID_PAYLOAD");
			problem(json(path, "{\"token\":null}"), 400, "INVALID_PAYLOAD");
			problem(json(path, "{\"token\":[\"t\"]}"), 400, "INVALID_PAYLOAD");
			problem(json(path, "{\"token\":\"t\",\"extra\":1}"), 400, "INVALID_PAYLOAD");
			problem(json(path, "\"t\""), 400, "INVALID_PAYLOAD");
			problem(json(path, "null"), 400, "INVALID_PAYLOAD");
			problem(post(path), 400, "INVALID_PAYLOAD");
			problem(post(path).contentType(MediaType.TEXT_PLAIN).content("{\"token\":\"t\"}"), 415, "INVALID_PAYLOAD");
			problem(post(path).contentType(MediaType.APPLICATION_FORM_URLENCODED).content("token=t"), 415,
					"INVALID_PAYLOAD");
			// a Content-Type that does not parse is refused by Spring MVC before any
			// controller is chosen
			this.mvc.perform(post(path).contentType("nonsense").content("{\"token\":\"t\"}"))
				.andExpect(status().isUnsupportedMediaType());
			problem(json(path, "{\"token\":\"t\",\"result\":\"" + "x".repeat(3000) + "\"}"), 413, "PAYLOAD_TOO_LARGE");
		}
		problem(json("/durable/activities/fail", "{\"token\":\"t\"}"), 400, "INVALID_PAYLOAD");
		problem(json("/durable/activities/fail", "{\"token\":\"t\",\"failure\":null}"), 400, "INVALID_PAYLOAD");
		problem(json("/durable/activities/fail", "{\"token\":\"t\",\"failure\":\"declined\"}"), 400, "INVALID_PAYLOAD");
		problem(json("/durable/activities/fail", "{\"token\":\"t\",\"failure\":{\"type\":\"Declined\"}}"), 400,
				"INVALID_PAYLOAD");
		problem(json("/durable/activities/fail", "{\"token\":\"t\",\"failure\":{\"message\":{\"text\":\"x\"}}}"), 400,
				"INVALID_PAYLOAD");
		problem(json("/durable/activities/fail",
				"{\"token\":\"t\",\"failure\":{\"message\":\"x\",\"nonRetryable\":\"maybe\"}}"), 400,
				"INVALID_PAYLOAD");
		problem(json("/durable/activities/fail", "{\"token\":\"t\",\"failure\":{\"message\":\"x\",\"retry\":false}}"),
				400, "INVALID_PAYLOAD");
		problem(json("/durable/activities/complete", "{\"token\":\"t\",\"details\":1}"), 400, "INVALID_PAYLOAD");
		problem(json("/durable/activities/heartbeat", "{\"token\":\"t\",\"result\":1}"), 400, "INVALID_PAYLOAD");
		assertThat(this.client.calls).isEmpty();
	}

	@Test
	void readOnlyRefusesEveryOneWith403() throws Exception {
		MockMvc readOnly = mvc(true);
		for (String path : List.of("/durable/activities/complete", "/durable/activities/fail",
				"/durable/activities/heartbeat")) {
			readOnly.perform(json(path, "{\"token\":\"t\",\"failure\":{\"message\":\"x\"}}"))
				.andExpect(status().isForbidden())
				.andExpect(jsonPath("$.code").value("READ_ONLY"));
		}
		assertThat(this.client.calls).isEmpty();
	}

}
