package dev.durable.docs.deploying;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.client.BuildMoveReport;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkerBuilds;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The deploying guide's worker-versioning snippets, on a node of build {@code 2026.12.2}:
 * ramping and choosing the current build, and moving the runs left pinned to build
 * {@code 2026.12.1}.
 */
class WorkerVersioningSnippetsTest {

	private final String schema = EmbeddedPostgresSupport.newSchemaName();

	private final WorkflowEngine engine = WorkflowEngine.builder()
		.dataSource(EmbeddedPostgresSupport.pooledDataSource())
		.schema(this.schema)
		.buildId("2026.12.2")
		.pollInterval(Duration.ofMillis(100))
		.register(InvoiceWorkflow.class)
		.build()
		.start();

	private final WorkflowClient client = this.engine.client();

	@AfterEach
	void stop() {
		this.engine.shutdown();
	}

	@Test
	void rampAndChooseTheCurrentBuild() {
		// @formatter:off
		// snippet:deploying-ramp
		WorkerBuilds builds = client.builds();
		builds.setCurrent("2026.12.1");        // keep the old build current while the new one ramps
		builds.setRamping("2026.12.2", 10);    // 10% of new runs, by workflow id
		// ... the new build looks good
		builds.setCurrent("2026.12.2");        // every new run, and the ramp ends
		builds.setCurrent(null);               // back to "the newest build with a live node"
		// end-snippet
		// @formatter:on
		assertThat(builds.routing().currentBuild()).isEqualTo("2026.12.2");
		assertThat(builds.routing().chosen()).isFalse();
		assertThat(builds.routing().rampingBuild()).isNull();
	}

	@Test
	void moveTheRunsOfAnOldBuild() {
		WorkflowHandle<String> invoice = this.client.start(InvoiceWorkflow::run, "ada",
				StartOptions.withId("invoice-ada"));
		await().until(() -> invoice.describe().workflowTasks() >= 1);
		// as if build 2026.12.1 had started it and its nodes were gone
		new JdbcTemplate(EmbeddedPostgresSupport.pooledDataSource()).update("UPDATE " + this.schema
				+ ".workflow_run SET build_id = '2026.12.1', owner_node = NULL" + " WHERE workflow_id = 'invoice-ada'");
		// @formatter:off
		// snippet:deploying-move
		BuildMoveReport report = client.builds().moveRuns("2026.12.1", "2026.12.2", null, 100);
		report.moved();     // these now run on 2026.12.2
		report.refused();   // these stay: each with the first task whose commands differ
		// end-snippet
		// @formatter:on
		assertThat(report.moved()).extracting(BuildMoveReport.MovedRun::workflowId).containsExactly("invoice-ada");
		invoice.signal(InvoiceWorkflow::send);
		assertThat(invoice.result(Duration.ofSeconds(20))).isEqualTo("invoiced ada");
	}

}
