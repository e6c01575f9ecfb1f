package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code GET} and {@code POST /durable/replay-check}: the node replays stored runs, or
 * the histories a caller exported, on its code and answers the report; bad parameters and
 * bodies are problems with stable codes.
 */
class ReplayCheckRestTest extends RestApiTestSupport {

	private String finishedOrderHistory(String workflowId) throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"" + workflowId
							+ "\",\"input\":{\"item\":\"book\",\"quantity\":2}}"))
			.andExpect(status().isCreated());
		this.mvc.perform(post("/durable/workflows/" + workflowId + "/signals/finish")).andExpect(status().isAccepted());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/" + workflowId))
			.andExpect(jsonPath("$.status").value("COMPLETED")));
		return this.mvc.perform(get("/durable/workflows/" + workflowId + "/history"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
	}

	@Test
	void storedRunsOfATypeReplayOnTheNodesCode() throws Exception {
		finishedOrderHistory("replay-check-1");
		this.mvc.perform(get("/durable/replay-check").param("workflowType", "order").param("sampleSize", "5"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.types[0].workflowType").value("order"))
			.andExpect(jsonPath("$.types[0].checked").value(greaterThanOrEqualTo(1)))
			.andExpect(jsonPath("$.types[0].failures").isEmpty())
			.andExpect(jsonPath("$.types.length()").value(1));
	}

	@Test
	void anExportedHistoryTheCodeNoLongerIssuesIsReportedWithItsMismatch() throws Exception {
		String history = finishedOrderHistory("replay-check-2");
		// the history of a build whose order asked another activity than this code's
		String changed = history.replace("\"price\"", "\"discount\"");
		String otherType = history.replace("\"order\"", "\"refund\"");
		this.mvc
			.perform(json(post("/durable/replay-check"),
					"{\"same.json\":" + history + ",\"changed.json\":" + changed + ",\"refund.json\":" + otherType
							+ "}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.types[0].workflowType").value("order"))
			.andExpect(jsonPath("$.types[0].checked").value(2))
			.andExpect(jsonPath("$.types[0].failures.length()").value(1))
			.andExpect(jsonPath("$.types[0].failures[0].workflowId").value("replay-check-2"))
			.andExpect(jsonPath("$.types[0].failures[0].kind").value("MISMATCH"))
			.andExpect(jsonPath("$.types[0].failures[0].recordedCommand").value(containsString("discount")))
			.andExpect(jsonPath("$.types[0].failures[0].issuedCommand").value(containsString("price")))
			.andExpect(jsonPath("$.types[1].workflowType").value("refund"))
			.andExpect(jsonPath("$.types[1].failures[0].kind").value("UNKNOWN_TYPE"));
	}

	@Test
	void badParametersAndBodiesAreProblems() throws Exception {
		problem(get("/durable/replay-check").param("workflowType", "nope"), 400, "UNKNOWN_TYPE");
		problem(get("/durable/replay-check").param("sampleSize", "0"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/replay-check").param("sampleSize", "1001"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/replay-check").param("sampleSize", "many"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/replay-check").param("openRunsOnly", "perhaps"), 400, "INVALID_PAYLOAD");
		problem(post("/durable/replay-check"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/replay-check"), "[]"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/replay-check"), "{}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/replay-check"), "{\"a.json\": 5}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/replay-check"), "{\"a.json\": [null]}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/replay-check"), "{\"a.json\": [{\"eventId\": \"x\"}]}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/replay-check"), "{\"a.json\": [] "), 400, "INVALID_PAYLOAD");
		problem(post("/durable/replay-check").contentType(MediaType.TEXT_PLAIN).content("{}"), 415, "INVALID_PAYLOAD");
		// events the engine cannot read are the history's failure, not the request's
		this.mvc.perform(json(post("/durable/replay-check"), "{\"a.json\": [{\"type\": \"NO_SUCH_EVENT\"}]}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.types[0].failures[0].kind").value("ERROR"))
			.andExpect(jsonPath("$.types[0].failures[0].workflowId").value("a.json"));
	}

}
