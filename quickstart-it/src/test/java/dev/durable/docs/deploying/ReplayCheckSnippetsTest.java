package dev.durable.docs.deploying;

import java.nio.file.Path;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.durable.docs.workflows.Greeter;
import dev.durable.docs.workflows.GreetingWorkflow;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.ReplayCheckOptions;
import dev.durable.workflow.engine.ReplayCheckReport;
import dev.durable.workflow.test.EmbeddedPostgresSupport;
import dev.durable.workflow.test.TestWorkflowEnvironment;
import dev.durable.workflow.test.WorkflowReplayer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The deploying guide's replay checks in a build: the exported histories of the guide's
 * {@link GreetingWorkflow} ({@code src/test/resources/histories}) and the runs of a
 * database (here an embedded one the test fills, standing for a copy of production).
 */
class ReplayCheckSnippetsTest {

	private static TestWorkflowEnvironment staging;

	private static DataSource stagingDataSource;

	private static String schema;

	@BeforeAll
	static void runsOfTheDeployedBuild() {
		staging = TestWorkflowEnvironment.create();
		staging.setAutoTimeSkipping(false);
		staging.registerWorkflows(GreetingWorkflow.class);
		staging.registerActivities(new Greeter());
		WorkflowHandle<String> open = staging.client()
			.start(GreetingWorkflow::run, "Ada", StartOptions.withId("greet-ada"));
		// the greeting done, the run sleeps three days
		await().until(() -> open.history().stream().anyMatch((event) -> event.type().equals("TIMER_STARTED")));
		stagingDataSource = EmbeddedPostgresSupport.pooledDataSource();
		schema = staging.schema();
	}

	@AfterAll
	static void close() {
		staging.close();
	}

	// @formatter:off
	// snippet:deploying-check-files
	@Test
	void theNewBuildReplaysTheExportedHistories() {
	  ReplayCheckReport report = WorkflowReplayer.checkDirectory(Path.of("src/test/resources/histories"),
	      WorkflowReplayer.Options.defaults(), GreetingWorkflow.class);   // every class whose histories are there
	  assertThat(report.failures()).isEmpty();   // each: type, workflow id, run id, task, recorded and issued command
	}
	// end-snippet

	// snippet:deploying-check-database
	@Test
	void theNewBuildReplaysTheOpenRunsOfStaging() {
	  ReplayCheckReport report = WorkflowReplayer.checkDatabase(stagingDataSource, schema, "default",
	      ReplayCheckOptions.defaults().withOpenRunsOnly(true).withSampleSize(50), GreetingWorkflow.class);
	  assertThat(report.checked()).isPositive();
	  assertThat(report.failures()).as(report.summary()).isEmpty();
	}
	// end-snippet
	// @formatter:on

}
