package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.durable.workflow.autoconfigure.actuate.WorkflowsEndpoint.WorkflowsDescriptor;
import dev.durable.workflow.autoconfigure.ops.BrokenWorkflow;
import dev.durable.workflow.autoconfigure.ops.OpsConfiguration;
import dev.durable.workflow.autoconfigure.ops.QuickWorkflow;
import dev.durable.workflow.autoconfigure.ops.WaitingWorkflow;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.EngineStats;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The {@code workflows} actuator endpoint on a real database. */
class WorkflowsEndpointTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(DurableWorkflowOpsAutoConfigurationTest.ALL)
		.withUserConfiguration(OpsConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withPropertyValues("durable.workflow.schema=" + DurableWorkflowOpsAutoConfigurationTest.newSchema(),
				"durable.workflow.worker.poll-interval=100ms", "management.endpoints.web.exposure.include=workflows",
				"durable.workflow.health.stuck-after=1h");

	@Test
	void countsRunsByTypeAndStatusAndShowsFailingRunsAndTheNode() {
		this.runner.run((context) -> {
			WorkflowClient client = context.getBean(WorkflowClient.class);
			WorkflowEngine engine = context.getBean(WorkflowEngine.class);
			WorkflowsEndpoint endpoint = context.getBean(WorkflowsEndpoint.class);
			assertThat(client.start(QuickWorkflow::run, "a", StartOptions.withId("quick-1"))
				.result(Duration.ofSeconds(30))).isEqualTo("tidy a, flaky a");
			client.start(WaitingWorkflow::run, StartOptions.withId("waiting-1"));
			client.start(BrokenWorkflow::run, StartOptions.withId("broken-1"));
			// a run on a queue no node serves stays in the backlog
			client.start(QuickWorkflow::run, "b",
					StartOptions.builder().workflowId("elsewhere-1").taskQueue("elsewhere").build());
			await().until(() -> endpoint.workflows().backlog().failing() == 1
					&& client.handle("waiting-1").describe().workflowTasks() > 0);

			WorkflowsDescriptor all = endpoint.workflows();
			assertThat(all.runs()).containsEntry("ops-quick", java.util.Map.of("COMPLETED", 1L, "RUNNING", 1L))
				.containsEntry("ops-waiting", java.util.Map.of("RUNNING", 1L))
				.containsEntry("ops-broken", java.util.Map.of("RUNNING", 1L));
			assertThat(all.backlog().runnable()).isEqualTo(1);
			assertThat(all.backlog().failing()).isEqualTo(1);
			assertThat(all.backlog().stuck()).isZero();
			assertThat(all.backlog().stuckAfter()).isEqualTo("PT1H");
			assertThat(all.failingRuns()).singleElement().satisfies((failing) -> {
				assertThat(failing.workflowId()).isEqualTo("broken-1");
				assertThat(failing.workflowType()).isEqualTo("ops-broken");
				assertThat(failing.attempts()).isPositive();
				assertThat(failing.reason()).contains("broken on purpose");
			});
			assertThat(all.thisNode().nodeId()).isEqualTo(engine.nodeId());
			assertThat(all.thisNode().running()).isTrue();
			assertThat(all.nodes()).extracting(EngineStats.Node::nodeId).containsExactly(engine.nodeId());
			assertThat(all.nodes().get(0).alive()).isTrue();
			assertThat(all.nodes().get(0).servedTypes()).contains("ops-quick", "ops-waiting", "ops-broken");

			// what the actuator writes
			String json = tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(all);
			assertThat(json).contains("\"runnable\":1", "\"workflowId\":\"broken-1\"",
					"\"ops-waiting\":{\"RUNNING\":1}");

			WorkflowsDescriptor quick = endpoint.workflowType("ops-quick");
			assertThat(quick.runs()).containsOnlyKeys("ops-quick");
			assertThat(quick.backlog().runnable()).isEqualTo(1);
			assertThat(quick.failingRuns()).isEmpty();
			// a type no node serves and no run has: null, which the actuator answers 404
			assertThat(endpoint.workflowType("no-such-type")).isNull();
		});
	}

	@Test
	void listsTheQueuesWithWhatTheyHold() {
		this.runner.withPropertyValues("durable.workflow.queues.batch.concurrency=1").run((context) -> {
			WorkflowClient client = context.getBean(WorkflowClient.class);
			WorkflowsEndpoint endpoint = context.getBean(WorkflowsEndpoint.class);
			client.start(WaitingWorkflow::run, StartOptions.builder().workflowId("batch-1").queue("batch").build());
			client.start(WaitingWorkflow::run, StartOptions.builder().workflowId("batch-2").queue("batch").build());
			await().until(() -> endpoint.workflows()
				.queues()
				.stream()
				.anyMatch((queue) -> queue.name().equals("batch") && queue.running() == 1 && queue.depth() == 1));
			WorkflowsDescriptor all = endpoint.workflows();
			assertThat(all.queues()).filteredOn((queue) -> queue.name().equals("batch"))
				.singleElement()
				.satisfies((batch) -> {
					assertThat(batch.limits().concurrency()).isEqualTo(1);
					assertThat(batch.runningWorkflows()).isEqualTo(1);
					assertThat(batch.waitingWorkflows()).isEqualTo(1);
					assertThat(batch.oldestWaitingSince()).isNotNull();
				});
			// a queue is no workflow type's: the narrowed view lists them all
			assertThat(endpoint.workflowType("ops-waiting").queues()).isEqualTo(all.queues());
			String json = tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(all);
			assertThat(json).contains("\"queues\":[", "\"name\":\"batch\"", "\"ratePeriod\":\"PT1S\"");
		});
	}

}
