package dev.durable.workflow.web;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import dev.durable.workflow.web.app.WebTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * With no access property set, reads (queries included) and starts answer; every other
 * mutating endpoint answers 403 {@code OPERATION_DISABLED}, naming the property that
 * enables it, and changes nothing; the dashboard hides its actions.
 */
@SpringBootTest(classes = WebTestApplication.class, properties = { "durable.workflow.schema=web_safe_default",
		"durable.workflow.embedded-postgres.enabled=false", "durable.workflow.worker.poll-interval=100ms" })
class MutatingEndpointsDisabledByDefaultTest {

	private static final String ORDER = "{\"item\":\"tea\",\"quantity\":2}";

	@Autowired
	private WebApplicationContext context;

	@Autowired
	@Qualifier("requestMappingHandlerMapping")
	private RequestMappingHandlerMapping mappings;

	private MockMvc mvc;

	@BeforeEach
	void mvc() {
		this.mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
	}

	private static MockHttpServletRequestBuilder json(MockHttpServletRequestBuilder request, String body) {
		return request.contentType(MediaType.APPLICATION_JSON).content(body);
	}

	private void disabled(MockHttpServletRequestBuilder request) throws Exception {
		this.mvc.perform(request)
			.andExpect(status().isForbidden())
			.andExpect(header().string("Content-Type", "application/problem+json"))
			.andExpect(jsonPath("$.code").value("OPERATION_DISABLED"))
			.andExpect(jsonPath("$.detail").value(containsString("durable.workflow.web.operations-enabled=true")));
	}

	@Test
	void readsAndStartsAnswerAndEveryOperationIsRefusedChangingNothing() throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"safe-1\",\"input\":" + ORDER + "}"))
			.andExpect(status().isCreated());
		this.mvc.perform(get("/durable/workflow-types")).andExpect(status().isOk());
		this.mvc.perform(get("/durable/workflows")).andExpect(status().isOk());
		this.mvc.perform(get("/durable/workflows/safe-1")).andExpect(status().isOk());
		this.mvc.perform(get("/durable/workflows/safe-1/history")).andExpect(status().isOk());
		this.mvc.perform(get("/durable/workflows/safe-1/result")).andExpect(status().isAccepted());
		await().untilAsserted(
				() -> this.mvc.perform(get("/durable/workflows/safe-1/queries/notes")).andExpect(status().isOk()));
		// a query by POST is a read too: it never changes the run
		this.mvc.perform(json(post("/durable/workflows/safe-1/queries/quantity"), "null"))
			.andExpect(status().isOk())
			.andExpect(content().string("2"));
		this.mvc.perform(get("/durable/queues")).andExpect(status().isOk());
		// the replay check replays on this node's code and changes nothing: a read, by
		// GET or POST
		this.mvc.perform(get("/durable/replay-check")).andExpect(status().isOk());
		this.mvc.perform(json(post("/durable/replay-check"), "{\"none\": []}")).andExpect(status().isOk());
		this.mvc.perform(get("/durable/schedules")).andExpect(status().isOk());
		this.mvc.perform(get("/durable/batches")).andExpect(status().isOk());
		this.mvc.perform(get("/durable/topics")).andExpect(status().isOk());

		disabled(json(post("/durable/batches"), "{\"operation\":\"TERMINATE\",\"filter\":{\"type\":\"order\"}}"));
		disabled(post("/durable/batches/b/cancel"));
		disabled(json(post("/durable/workflows/safe-1/signals/addNote"), "\"fragile\""));
		disabled(json(post("/durable/workflows/safe-1/updates/setQuantity"), "5"));
		disabled(json(post("/durable/workflows/safe-1/cancel"), "{\"reason\":\"r\"}"));
		disabled(json(post("/durable/workflows/safe-1/terminate"), "{\"reason\":\"r\"}"));
		disabled(json(post("/durable/workflows/safe-1/pause"), "{\"reason\":\"r\"}"));
		disabled(post("/durable/workflows/safe-1/unpause"));
		disabled(json(post("/durable/workflows/safe-1/activities/1/pause"), "{\"reason\":\"r\"}"));
		disabled(post("/durable/workflows/safe-1/activities/1/unpause"));
		disabled(post("/durable/workflows/safe-1/activities/1/reset"));
		disabled(json(post("/durable/workflows/safe-1/activities/1/options"), "{\"heartbeatTimeout\":\"PT1M\"}"));
		disabled(json(post("/durable/workflows/safe-1/reset"), "{\"eventId\":3}"));
		disabled(json(post("/durable/schedules"), "{\"scheduleId\":\"s\"}"));
		disabled(json(put("/durable/schedules/s"), "{}"));
		disabled(post("/durable/schedules/s/pause"));
		disabled(post("/durable/schedules/s/unpause"));
		disabled(post("/durable/schedules/s/trigger"));
		disabled(post("/durable/schedules/s/backfill"));
		disabled(delete("/durable/schedules/s"));
		disabled(json(post("/durable/topics/payments/events"), "{\"orderId\":\"o-1\"}"));
		disabled(json(post("/durable/activities/complete"), "{\"token\":\"t\"}"));
		disabled(json(post("/durable/activities/fail"), "{\"token\":\"t\",\"failure\":{\"message\":\"m\"}}"));
		disabled(json(post("/durable/activities/heartbeat"), "{\"token\":\"t\"}"));
		// signal-with-start signals the open run of its id: an operation, refused before
		// anything starts
		disabled(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"safe-2\",\"input\":" + ORDER
				+ ",\"signal\":{\"name\":\"addNote\",\"payload\":\"x\"}}"));
		disabled(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"safe-1\",\"input\":" + ORDER
				+ ",\"options\":{\"idConflictPolicy\":\"USE_EXISTING\"},\"signal\":{\"name\":\"addNote\",\"payload\":\"x\"}}"));

		this.mvc.perform(get("/durable/workflows/safe-2")).andExpect(status().isNotFound());
		this.mvc.perform(get("/durable/workflows/safe-1"))
			.andExpect(jsonPath("$.status").value("RUNNING"))
			.andExpect(jsonPath("$.runId").isNotEmpty());
		this.mvc.perform(get("/durable/workflows/safe-1/queries/notes")).andExpect(content().json("[]"));
		this.mvc.perform(get("/durable/workflows/safe-1/queries/quantity")).andExpect(content().string("2"));
		this.mvc.perform(get("/durable/schedules")).andExpect(content().json("[]"));
		this.mvc.perform(get("/durable/batches")).andExpect(content().json("[]"));
	}

	@Test
	void theDashboardServesReadsWithItsActionsHidden() throws Exception {
		this.mvc.perform(get("/durable/ui"))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("\"actions\":false")));
	}

	/**
	 * Every mapping of the generated controllers is a read, a start or an operation: this
	 * list is what the safe default guards, so a new endpoint shows up here.
	 */
	@Test
	void everyMutatingEndpointButStartIsAnOperation() {
		Set<String> operations = new TreeSet<>();
		Set<String> starts = new TreeSet<>();
		for (Map.Entry<RequestMappingInfo, HandlerMethod> entry : this.mappings.getHandlerMethods().entrySet()) {
			if (!entry.getValue().getBeanType().getPackageName().equals("dev.durable.workflow.web")) {
				continue;
			}
			for (var method : entry.getKey().getMethodsCondition().getMethods()) {
				for (String path : entry.getKey().getPatternValues()) {
					switch (OperationAccessInterceptor.kind(method.name(), entry.getValue())) {
						case START -> starts.add(method + " " + path);
						case OPERATION -> operations.add(method + " " + path);
						case READ -> {
						}
					}
				}
			}
		}
		assertThat(starts).containsExactly("POST /durable/debounces", "POST /durable/workflows");
		assertThat(operations).containsExactlyInAnyOrder("POST /durable/workflows/{workflowId}/signals/{name}",
				"POST /durable/workflows/{workflowId}/updates/{name}", "POST /durable/workflows/{workflowId}/cancel",
				"POST /durable/workflows/{workflowId}/terminate", "POST /durable/workflows/{workflowId}/reset",
				"POST /durable/workflows/{workflowId}/pause", "POST /durable/workflows/{workflowId}/unpause",
				"PUT /durable/builds/current", "PUT /durable/builds/ramping", "POST /durable/builds/{buildId}/move",
				"POST /durable/workflows/{workflowId}/move-build", "POST /durable/topics/{topic}/events",
				"POST /durable/workflows/{workflowId}/activities/{activityId}/pause",
				"POST /durable/workflows/{workflowId}/activities/{activityId}/unpause",
				"POST /durable/workflows/{workflowId}/activities/{activityId}/reset",
				"POST /durable/workflows/{workflowId}/activities/{activityId}/options", "POST /durable/schedules",
				"PUT /durable/schedules/{scheduleId}", "POST /durable/schedules/{scheduleId}/pause",
				"POST /durable/schedules/{scheduleId}/unpause", "POST /durable/schedules/{scheduleId}/trigger",
				"POST /durable/schedules/{scheduleId}/backfill", "DELETE /durable/schedules/{scheduleId}",
				"POST /durable/activities/complete", "POST /durable/activities/fail",
				"POST /durable/activities/heartbeat", "POST /durable/batches",
				"POST /durable/batches/{batchId}/cancel");
	}

}
