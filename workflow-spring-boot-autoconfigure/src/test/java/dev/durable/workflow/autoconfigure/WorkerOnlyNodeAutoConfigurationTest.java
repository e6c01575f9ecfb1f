package dev.durable.workflow.autoconfigure;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.durable.workflow.autoconfigure.tasks.Transcoding;
import dev.durable.workflow.autoconfigure.tasks.worker.Transcoder;
import dev.durable.workflow.autoconfigure.tasks.worker.WorkerNodeConfiguration;
import dev.durable.workflow.autoconfigure.tasks.workflows.TranscodeWorkflow;
import dev.durable.workflow.autoconfigure.tasks.workflows.WorkflowNodeConfiguration;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowTypeInfo;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nodes with a part of the work, on a real (embedded) PostgreSQL: a worker-only node
 * ({@code durable.workflow.worker.workflows=false}) with no workflow class and the
 * activity of its task queue, and a workflow node whose workflow takes an
 * {@code @Activity} interface that no bean of that node implements.
 */
class WorkerOnlyNodeAutoConfigurationTest {

	private static final AtomicInteger SCHEMAS = new AtomicInteger();

	private final String schema = "nodes" + SCHEMAS.incrementAndGet() + "_"
			+ Long.toHexString(System.nanoTime() & 0xFFFFFF);

	private ApplicationContextRunner node() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class))
			.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
			.withPropertyValues("durable.workflow.schema=" + this.schema,
					"durable.workflow.worker.poll-interval=100ms");
	}

	private ApplicationContextRunner workerOnlyNode() {
		return node().withUserConfiguration(WorkerNodeConfiguration.class)
			.withPropertyValues("durable.workflow.worker.workflows=false",
					"durable.workflow.worker.activity-task-queues=gpu");
	}

	private ApplicationContextRunner workflowNode() {
		return node().withUserConfiguration(WorkflowNodeConfiguration.class);
	}

	@Test
	void aWorkerOnlyNodeStartsWithNoWorkflowClassAndTheActivitiesOfItsTaskQueues() {
		workerOnlyNode().run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(Transcoder.class);
			WorkflowEngine engine = context.getBean(WorkflowEngine.class);
			assertThat(engine.isRunning()).isTrue();
			assertThat(engine.settings().workerEnabled()).isTrue();
			assertThat(engine.settings().runsWorkflows()).isFalse();
			assertThat(engine.settings().activityTaskQueues()).containsExactly("gpu");
			assertThat(engine.workflowTypes()).extracting(WorkflowTypeInfo::name).doesNotContain("transcode");
		});
	}

	@Test
	void aWorkflowNodeStartsWithAnActivityInterfaceNoBeanOfItImplements() {
		workflowNode().run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(Transcoding.class);
			WorkflowEngine engine = context.getBean(WorkflowEngine.class);
			assertThat(engine.settings().runsWorkflows()).isTrue();
			assertThat(engine.settings().activityTaskQueues()).isEmpty();
			assertThat(engine.workflowTypes()).extracting(WorkflowTypeInfo::name).contains("transcode");
		});
	}

	@Test
	void theWorkflowNodesRunCallsTheActivityOnTheWorkerOnlyNode() {
		workerOnlyNode().run((worker) -> workflowNode().run((workflows) -> {
			WorkflowClient client = workflows.getBean(WorkflowClient.class);
			String result = client.start(TranscodeWorkflow::run, "cat", StartOptions.withId("transcode-cat"))
				.result(Duration.ofSeconds(30));
			assertThat(result).isEqualTo("published cat.mp4");
			assertThat(worker.getBean(Transcoder.class).videos()).containsExactly("cat");
			// the run was owned by the workflow node: the worker-only node runs no
			// workflow
			assertThat(client.handle("transcode-cat").history()).isNotEmpty();
		}));
	}

}
