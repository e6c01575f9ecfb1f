package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import dev.durable.workflow.web.app.Payments;

import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code POST /durable/activities/complete}, {@code /fail} and {@code /heartbeat}
 * finishing the attempts of an activity that completes asynchronously ({@link Payments}),
 * against a real embedded PostgreSQL.
 */
class ActivityCompletionEndpointTest extends RestApiTestSupport {

	@Autowired
	private Payments payments;

	/** Starts a payment and waits until its charge attempt handed out its token. */
	private String startPayment(String order) throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"payment\",\"workflowId\":\"" + order + "\",\"input\":\"" + order + "\"}"))
			.andExpect(status().isCreated());
		return awaitToken(order, 1);
	}

	private String awaitToken(String order, int attempt) {
		return await().until(() -> this.payments.token(order, attempt), java.util.Objects::nonNull);
	}

	private void applied(MockHttpServletRequestBuilder request, boolean applied) throws Exception {
		this.mvc.perform(request).andExpect(status().isOk()).andExpect(jsonPath("$.applied").value(applied));
	}

	private static String tokenOnly(String token) {
		return "{\"token\":\"" + token + "\"}";
	}

	@Test
	void completesAnAttemptOnceAndTheRunGoesOn() throws Exception {
		String token = startPayment("pay-complete");
		applied(json(post("/durable/activities/heartbeat"),
				"{\"token\":\"" + token + "\",\"details\":{\"step\":\"authorized\"}}"), true);
		// describe shows what the run waits for: the attempt the gateway is to complete
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/pay-complete"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.pendingActivities.length()").value(1))
			.andExpect(jsonPath("$.pendingActivities[0].activityType").value("charge"))
			.andExpect(jsonPath("$.pendingActivities[0].state").value("AWAITING_COMPLETION"))
			.andExpect(jsonPath("$.pendingActivities[0].attempt").value(1))
			.andExpect(jsonPath("$.pendingActivities[0].lastStartedTime").isNotEmpty())
			.andExpect(jsonPath("$.pendingActivities[0].lastHeartbeatTime").isNotEmpty()));
		applied(json(post("/durable/activities/complete"), "{\"token\":\"" + token + "\",\"result\":\"receipt-7\"}"),
				true);
		// a retried callback changes nothing
		applied(json(post("/durable/activities/complete"), "{\"token\":\"" + token + "\",\"result\":\"receipt-8\"}"),
				false);
		applied(json(post("/durable/activities/heartbeat"), tokenOnly(token)), false);
		applied(json(post("/durable/activities/fail"),
				"{\"token\":\"" + token + "\",\"failure\":{\"message\":\"too late\"}}"), false);
		this.mvc.perform(get("/durable/workflows/pay-complete/result").param("wait", "PT10S"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.status").value("COMPLETED"))
			.andExpect(jsonPath("$.result").value("paid pay-complete: receipt-7"));
	}

	@Test
	void aFailureIsRetriedByTheActivitysPolicyAndANonRetryableOneFailsTheRun() throws Exception {
		String first = startPayment("pay-fail");
		applied(json(post("/durable/activities/fail"),
				"{\"token\":\"" + first + "\",\"failure\":{\"type\":\"GatewayDown\",\"message\":\"try later\"}}"),
				true);
		String second = awaitToken("pay-fail", 2);
		applied(json(post("/durable/activities/fail"), "{\"token\":\"" + second + "\",\"failure\":{\"type\":"
				+ "\"Declined\",\"message\":\"card declined\",\"nonRetryable\":true,\"details\":{\"code\":51}}}"),
				true);
		this.mvc.perform(get("/durable/workflows/pay-fail/result").param("wait", "PT10S"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.status").value("FAILED"))
			.andExpect(jsonPath("$.failure.cause.type").value("Declined"))
			.andExpect(jsonPath("$.failure.cause.message").value("card declined"))
			.andExpect(jsonPath("$.failure.cause.nonRetryable").value(true));
	}

	@Test
	void badRequestsAreRefusedWithAProblemAndChangeNothing() throws Exception {
		String token = startPayment("pay-bad");
		String complete = "{\"token\":\"" + token + "\",\"result\":\"receipt\"}";
		problem(json(post("/durable/activities/complete"), tokenOnly("not-a-token")), 400, "INVALID_TOKEN");
		problem(json(post("/durable/activities/fail"), "{\"token\":\"not-a-token\",\"failure\":{\"message\":\"x\"}}"),
				400, "INVALID_TOKEN");
		problem(json(post("/durable/activities/heartbeat"), tokenOnly("%%%")), 400, "INVALID_TOKEN");
		problem(json(post("/durable/activities/complete"), "{\"token\":\"" + token + "\",\"result\":"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/activities/complete"), "{\"result\":\"receipt\"}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/activities/complete"), "{\"token\":42,\"result\":\"receipt\"}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/activities/complete"), "{\"token\":\"" + token + "\",\"reslt\":\"receipt\"}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/activities/complete"), "[\"" + token + "\"]"), 400, "INVALID_PAYLOAD");
		problem(post("/durable/activities/complete"), 400, "INVALID_PAYLOAD");
		problem(post("/durable/activities/complete").contentType(MediaType.TEXT_PLAIN).content(complete), 415,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/activities/complete"),
				"{\"token\":\"" + token + "\",\"result\":\"" + "x".repeat(3000) + "\"}"), 413, "PAYLOAD_TOO_LARGE");
		problem(json(post("/durable/activities/fail"), tokenOnly(token)), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/activities/fail"), "{\"token\":\"" + token + "\",\"failure\":\"declined\"}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/activities/fail"),
				"{\"token\":\"" + token + "\",\"failure\":{\"message\":\"x\",\"nonRetryable\":\"maybe\"}}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/activities/fail"),
				"{\"token\":\"" + token + "\",\"failure\":{\"message\":\"x\",\"retry\":false}}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/activities/heartbeat"), "{\"token\":\"" + token + "\",\"detail\":1}"), 400,
				"INVALID_PAYLOAD");
		problem(post("/durable/activities/heartbeat").contentType(MediaType.TEXT_PLAIN).content(tokenOnly(token)), 415,
				"INVALID_PAYLOAD");
		// the attempt is still awaited, on its first attempt: none of the above reached
		// it
		applied(json(post("/durable/activities/complete"), complete), true);
		this.mvc.perform(get("/durable/workflows/pay-bad/result").param("wait", "PT10S"))
			.andExpect(jsonPath("$.result").value("paid pay-bad: receipt"));
		org.assertj.core.api.Assertions.assertThat(this.payments.token("pay-bad", 2)).isNull();
	}

}
