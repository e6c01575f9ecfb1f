package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.web.app.WebTestApplication;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The worker-versioning endpoints on a node of build {@code rest-2.0}: the builds and
 * their drain status, the current and ramping builds, a stranded pinned run shown as
 * waiting for its build and moved to this node's build, and the problems of bad
 * parameters, a target that is not this node's build, and runs that cannot move.
 */
@SpringBootTest(classes = WebTestApplication.class,
		properties = { "durable.workflow.schema=web_builds", "durable.workflow.embedded-postgres.enabled=false",
				"durable.workflow.worker.poll-interval=100ms", "durable.workflow.node.build-id=rest-2.0",
				"durable.workflow.web.operations-enabled=true" })
class WorkerVersioningRestTest extends RestApiTestSupport {

	@Autowired
	private JdbcTemplate jdbc;

	private void startOrder(String workflowId) throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"" + workflowId
							+ "\",\"input\":{\"item\":\"lamp\",\"quantity\":1}}"))
			.andExpect(status().isCreated());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/" + workflowId))
			.andExpect(jsonPath("$.workflowTasks").value(1)));
	}

	@Test
	void theBuildsShowWhereNewRunsGoAndTheRampCanBeSet() throws Exception {
		this.mvc.perform(get("/durable/builds"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.routing.currentBuild").value("rest-2.0"))
			.andExpect(jsonPath("$.routing.chosen").value(false))
			.andExpect(jsonPath("$.builds[?(@.buildId == 'rest-2.0')].state").value(hasItem("CURRENT")))
			.andExpect(jsonPath("$.builds[?(@.buildId == 'rest-2.0')].liveNodes").value(hasItem(1)));
		this.mvc.perform(put("/durable/builds/current").param("buildId", "rest-2.0"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.chosen").value(true));
		this.mvc.perform(put("/durable/builds/ramping").param("buildId", "rest-3.0").param("percent", "20"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.rampingBuild").value("rest-3.0"))
			.andExpect(jsonPath("$.rampingPercent").value(20));
		problem(put("/durable/builds/ramping").param("buildId", "rest-3.0").param("percent", "200"), 400,
				"INVALID_PAYLOAD");
		problem(put("/durable/builds/ramping").param("buildId", "rest-3.0").param("percent", "many"), 400,
				"INVALID_PAYLOAD");
		this.mvc.perform(put("/durable/builds/ramping"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.rampingBuild").doesNotExist())
			.andExpect(jsonPath("$.rampingPercent").value(0));
		this.mvc.perform(put("/durable/builds/current"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.currentBuild").value("rest-2.0"))
			.andExpect(jsonPath("$.chosen").value(false));
	}

	@Test
	void aStrandedRunShowsItsBuildAndMovesToThisNodesBuild() throws Exception {
		startOrder("builds-stranded");
		this.mvc.perform(get("/durable/workflows/builds-stranded"))
			.andExpect(jsonPath("$.build.buildId").value("rest-2.0"))
			.andExpect(jsonPath("$.build.waitingForBuild").value(false));
		// as if an older build, whose nodes are all gone, had started it
		this.jdbc.update("UPDATE web_builds.workflow_run SET build_id = 'rest-1.0', pinned = true, owner_node = NULL"
				+ " WHERE workflow_id = 'builds-stranded'");
		this.mvc.perform(get("/durable/workflows/builds-stranded"))
			.andExpect(jsonPath("$.build.buildId").value("rest-1.0"))
			.andExpect(jsonPath("$.build.pinned").value(true))
			.andExpect(jsonPath("$.build.waitingForBuild").value(true));
		this.mvc.perform(get("/durable/workflows/builds-stranded/waiting-on"))
			.andExpect(jsonPath("$[*].kind").value(hasItem("BUILD")));
		this.mvc.perform(get("/durable/builds"))
			.andExpect(jsonPath("$.builds[?(@.buildId == 'rest-1.0')].state").value(hasItem("DRAINING")))
			.andExpect(jsonPath("$.builds[?(@.buildId == 'rest-1.0')].strandedRuns").value(hasItem(1)));

		problem(post("/durable/builds/rest-1.0/move").param("toBuild", "rest-9.0"), 400, "INVALID_PAYLOAD");
		problem(post("/durable/builds/rest-1.0/move").param("toBuild", "rest-2.0").param("limit", "0"), 400,
				"INVALID_PAYLOAD");
		problem(post("/durable/builds/rest-1.0/move"), 400, "INVALID_PAYLOAD");
		this.mvc.perform(post("/durable/builds/rest-1.0/move").param("toBuild", "rest-2.0"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.toBuild").value("rest-2.0"))
			.andExpect(jsonPath("$.moved[0].workflowId").value("builds-stranded"))
			.andExpect(jsonPath("$.moved[0].fromBuild").value("rest-1.0"))
			.andExpect(jsonPath("$.refused").isEmpty());
		this.mvc.perform(get("/durable/builds")).andExpect(jsonPath("$.builds[?(@.buildId == 'rest-1.0')]").isEmpty());
		this.mvc.perform(post("/durable/workflows/builds-stranded/signals/finish")).andExpect(status().isAccepted());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/builds-stranded"))
			.andExpect(jsonPath("$.status").value("COMPLETED")));
	}

	@Test
	void aRunMovesAloneOnlyWhenItIsOpenAndPinned() throws Exception {
		problem(post("/durable/workflows/no-such-run/move-build").param("toBuild", "rest-2.0"), 404,
				"WORKFLOW_NOT_FOUND");
		startOrder("builds-single");
		this.jdbc.update("UPDATE web_builds.workflow_run SET build_id = 'rest-1.1', pinned = true, owner_node = NULL"
				+ " WHERE workflow_id = 'builds-single'");
		problem(post("/durable/workflows/builds-single/move-build").param("toBuild", "rest-1.1"), 400,
				"INVALID_PAYLOAD");
		this.mvc.perform(post("/durable/workflows/builds-single/move-build").param("toBuild", "rest-2.0"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.moved[0].workflowId").value("builds-single"));
		this.jdbc.update("UPDATE web_builds.workflow_run SET pinned = false WHERE workflow_id = 'builds-single'");
		problem(post("/durable/workflows/builds-single/move-build").param("toBuild", "rest-2.0"), 409, "CONFLICT");
		this.mvc.perform(json(post("/durable/workflows/builds-single/terminate"), "{\"reason\":\"done\"}"))
			.andExpect(status().isNoContent());
		problem(post("/durable/workflows/builds-single/move-build").param("toBuild", "rest-2.0"), 409,
				"WORKFLOW_CLOSED");
	}

}
