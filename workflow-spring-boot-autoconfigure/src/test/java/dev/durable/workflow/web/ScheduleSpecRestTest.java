package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.hasSize;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Schedule bodies with specs of several cron expressions, calendars (objects or cron
 * strings), intervals and skips, and with limited actions; the single-source spec of
 * earlier versions; bad specs answered 400 without creating anything.
 */
class ScheduleSpecRestTest extends RestApiTestSupport {

	private static final String ACTION = "\"action\":{\"workflowType\":\"order\",\"input\":{\"item\":\"tea\","
			+ "\"quantity\":1}}";

	private static final String COMBINED = "{\"scheduleId\":\"combined\",\"spec\":{"
			+ "\"cronExpressions\":[\"0 30 2 * * *\"],"
			+ "\"calendars\":[{\"hour\":\"9-17\",\"minute\":\"*/15\",\"dayOfWeek\":\"MON-FRI\",\"comment\":\"office\"},"
			+ "\"0 0 12 * * SAT\"]," + "\"intervals\":[{\"every\":\"PT6H\",\"offset\":\"PT5M\"}],"
			+ "\"skip\":[\"* * * 25 12 *\",{\"second\":\"*\",\"minute\":\"*\",\"hour\":\"13\"}],"
			+ "\"timeZone\":\"Europe/Berlin\"}," + ACTION + ",\"remainingActions\":2}";

	private String body(String scheduleId, String spec) {
		return "{\"scheduleId\":\"" + scheduleId + "\",\"spec\":" + spec + "," + ACTION + "}";
	}

	@Test
	void aCombinedSpecWithLimitedActionsIsCreatedDescribedAndUpdated() throws Exception {
		this.mvc.perform(json(post("/durable/schedules"), COMBINED)).andExpect(status().isCreated());
		this.mvc.perform(get("/durable/schedules/combined"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.schedule.spec.cronExpressions[0]").value("0 30 2 * * *"))
			.andExpect(jsonPath("$.schedule.spec.calendars", hasSize(2)))
			.andExpect(jsonPath("$.schedule.spec.calendars[0].minute").value("*/15"))
			.andExpect(jsonPath("$.schedule.spec.calendars[0].second").value("0"))
			.andExpect(jsonPath("$.schedule.spec.calendars[0].comment").value("office"))
			.andExpect(jsonPath("$.schedule.spec.calendars[1].hour").value("12"))
			.andExpect(jsonPath("$.schedule.spec.calendars[1].dayOfWeek").value("SAT"))
			.andExpect(jsonPath("$.schedule.spec.intervals[0].every").value("PT6H"))
			.andExpect(jsonPath("$.schedule.spec.intervals[0].offset").value("PT5M"))
			.andExpect(jsonPath("$.schedule.spec.skip", hasSize(2)))
			.andExpect(jsonPath("$.schedule.spec.skip[0].dayOfMonth").value("25"))
			.andExpect(jsonPath("$.schedule.spec.timeZone").value("Europe/Berlin"))
			// only the spec's own fields: no single-source accessor leaks into the JSON
			.andExpect(jsonPath("$.schedule.spec.cronExpression").doesNotExist())
			.andExpect(jsonPath("$.schedule.spec.interval").doesNotExist())
			.andExpect(jsonPath("$.schedule.remainingActions").value(2))
			.andExpect(jsonPath("$.nextActionTimes").isNotEmpty());
		// more actions by an update; the spec given back as described is accepted as it
		// is
		String described = this.mvc.perform(get("/durable/schedules/combined"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		String spec = described.substring(described.indexOf("\"spec\":") + 7, described.indexOf(",\"action\""));
		this.mvc
			.perform(json(put("/durable/schedules/combined"),
					"{\"spec\":" + spec + "," + ACTION + ",\"remainingActions\":5}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.schedule.remainingActions").value(5))
			.andExpect(jsonPath("$.schedule.spec.calendars", hasSize(2)))
			.andExpect(jsonPath("$.schedule.spec.skip", hasSize(2)));
		// a replacement without remainingActions is unlimited
		this.mvc
			.perform(json(put("/durable/schedules/combined"),
					"{\"spec\":{\"intervals\":[{\"every\":\"PT1H\"}]}," + ACTION + "}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.schedule.remainingActions").doesNotExist())
			.andExpect(jsonPath("$.schedule.spec.intervals[0].offset").value("PT0S"));
	}

	@Test
	void theSingleSourceSpecOfEarlierVersionsIsStillAccepted() throws Exception {
		this.mvc
			.perform(json(post("/durable/schedules"),
					body("legacy-cron", "{\"cronExpression\":\"0 2 * * *\",\"timeZone\":\"Europe/Berlin\"}")))
			.andExpect(status().isCreated());
		this.mvc.perform(get("/durable/schedules/legacy-cron"))
			.andExpect(jsonPath("$.schedule.spec.cronExpressions[0]").value("0 2 * * *"))
			.andExpect(jsonPath("$.schedule.spec.intervals", hasSize(0)));
		this.mvc
			.perform(json(post("/durable/schedules"),
					body("legacy-every", "{\"interval\":\"PT10M\",\"offset\":\"PT3M\"}")))
			.andExpect(status().isCreated());
		this.mvc.perform(get("/durable/schedules/legacy-every"))
			.andExpect(jsonPath("$.schedule.spec.intervals[0].every").value("PT10M"))
			.andExpect(jsonPath("$.schedule.spec.intervals[0].offset").value("PT3M"))
			.andExpect(jsonPath("$.schedule.spec.timeZone").value("UTC"));
	}

	@Test
	void badSpecsAndLimitsAreRefusedAndCreateNothing() throws Exception {
		String[][] cases = { { "no-source", "{\"timeZone\":\"UTC\"}" },
				{ "bad-calendar", "{\"calendars\":[{\"hour\":\"25\"}]}" },
				{ "spaced-field", "{\"calendars\":[{\"hour\":\"9 - 17\"}]}" },
				{ "misspelt-field", "{\"calendars\":[{\"hours\":\"9\"}]}" },
				{ "bad-cron-calendar", "{\"calendars\":[\"at noon\"]}" },
				{ "bad-skip", "{\"cronExpressions\":[\"0 0 9 * * *\"],\"skip\":[\"0 0 32 * *\"]}" },
				{ "cron-tz", "{\"cronExpressions\":[\"CRON_TZ=Asia/Tokyo 0 0 9 * * *\"]}" },
				{ "zero-interval", "{\"intervals\":[{\"every\":\"PT0S\"}]}" },
				{ "offset-alone", "{\"cronExpression\":\"0 2 * * *\",\"offset\":\"PT1M\"}" },
				{ "not-a-list", "{\"cronExpression\":\"0 2 * * *\",\"cronExpressions\":\"0 3 * * *\"}" },
				{ "null-calendar", "{\"calendars\":[null]}" } };
		for (String[] bad : cases) {
			problem(json(post("/durable/schedules"), body(bad[0], bad[1])), 400, "INVALID_PAYLOAD");
		}
		problem(json(post("/durable/schedules"), body("negative", "{\"intervals\":[{\"every\":\"PT1H\"}]}")
			.replace("}}}", "}},\"remainingActions\":-1}")), 400, "INVALID_PAYLOAD");
		for (String[] bad : cases) {
			problem(get("/durable/schedules/" + bad[0]), 404, "SCHEDULE_NOT_FOUND");
		}
		problem(get("/durable/schedules/negative"), 404, "SCHEDULE_NOT_FOUND");
	}

}
