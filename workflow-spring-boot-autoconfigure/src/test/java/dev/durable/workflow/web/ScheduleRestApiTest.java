package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The generated schedule endpoints and their error codes (same application as
 * WorkflowRestApiTest).
 */
class ScheduleRestApiTest extends RestApiTestSupport {

	private static final String NIGHTLY = "{\"scheduleId\":\"nightly\",\"spec\":{\"cronExpression\":\"0 2 * * *\","
			+ "\"timeZone\":\"Europe/Berlin\"},\"action\":{\"workflowType\":\"order\",\"input\":{\"item\":\"tea\","
			+ "\"quantity\":1},\"workflowIdPrefix\":\"nightly-order\"},\"overlapPolicy\":\"ALLOW_ALL\"}";

	@Test
	void createDescribeTriggerPauseBackfillUpdateDelete() throws Exception {
		this.mvc.perform(json(post("/durable/schedules"), NIGHTLY))
			.andExpect(status().isCreated())
			.andExpect(header().string("Location", org.hamcrest.Matchers.endsWith("/durable/schedules/nightly")));
		problem(json(post("/durable/schedules"), NIGHTLY), 409, "SCHEDULE_ALREADY_EXISTS");
		this.mvc.perform(get("/durable/schedules/nightly"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.schedule.spec.timeZone").value("Europe/Berlin"))
			.andExpect(jsonPath("$.nextActionTimes").isNotEmpty());
		this.mvc.perform(get("/durable/schedules"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[?(@.scheduleId == 'nightly')]").isNotEmpty());
		this.mvc.perform(post("/durable/schedules/nightly/trigger"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.workflowId").value(org.hamcrest.Matchers.startsWith("nightly-order-")));
		this.mvc.perform(json(post("/durable/schedules/nightly/pause"), "{\"note\":\"maintenance\"}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.schedule.paused").value(true))
			.andExpect(jsonPath("$.schedule.note").value("maintenance"));
		this.mvc.perform(post("/durable/schedules/nightly/unpause"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.schedule.paused").value(false));
		this.mvc
			.perform(json(post("/durable/schedules/nightly/backfill"),
					"{\"start\":\"2025-06-01T00:00:00Z\",\"end\":\"2025-06-03T00:00:00Z\"}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.length()").value(2));
		this.mvc
			.perform(json(put("/durable/schedules/nightly"),
					NIGHTLY.replace("0 2 * * *", "0 3 * * *").replace("{\"scheduleId\":\"nightly\",", "{")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.schedule.spec.cronExpressions[0]").value("0 3 * * *"));
		this.mvc.perform(delete("/durable/schedules/nightly")).andExpect(status().isNoContent());
		problem(get("/durable/schedules/nightly"), 404, "SCHEDULE_NOT_FOUND");
		problem(post("/durable/schedules/nightly/trigger"), 404, "SCHEDULE_NOT_FOUND");
	}

	@Test
	void badSchedulesAreRefusedAndCreateNothing() throws Exception {
		problem(json(post("/durable/schedules"),
				NIGHTLY.replace("nightly\"", "bad-cron\"").replace("0 2 * * *", "every night")), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/schedules"),
				NIGHTLY.replace("nightly\"", "bad-zone\"").replace("Europe/Berlin", "Mars/Olympus")), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/schedules"),
				NIGHTLY.replace("nightly\"", "bad-input\"").replace("\"quantity\":1", "\"quantity\":\"one\"")), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/schedules"), NIGHTLY.replace("nightly\"", "bad-type\"")
			.replace("\"workflowType\":\"order\"", "\"workflowType\":\"nope\"")), 400, "UNKNOWN_TYPE");
		problem(json(post("/durable/schedules"), "{\"spec\":{}}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/schedules"), "{"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/schedules/none/backfill"), "{\"start\":\"2025-06-01T00:00:00Z\"}"), 400,
				"INVALID_PAYLOAD");
		for (String id : new String[] { "bad-cron", "bad-zone", "bad-input", "bad-type" }) {
			problem(get("/durable/schedules/" + id), 404, "SCHEDULE_NOT_FOUND");
		}
	}

}
