package dev.durable.workflow.internal.worker;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A workflow task reads the run row before it runs the code: when the row says another
 * epoch (another node claimed the run), the task lets the run go and writes nothing.
 */
class WorkflowTaskOwnershipTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Test
	void aTaskOfARunClaimedElsewhereLetsItGoAndWritesNothing() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(RunDiscardTest.Waiter.class));
		WorkflowTaskExecutor executor = NodeInternals.executor(EngineInternals.node(engine));
		UUID runId = engine.client().start(RunDiscardTest.Waiter::run, StartOptions.withId("claimed")).runId();
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			RunSlot slot = executor.slots().get(runId);
			return slot != null && slot.runner() != null && !slot.isBusy();
		});
		int history = this.engines.count("history");
		this.engines.jdbc()
			.update("UPDATE " + this.engines.schema + ".workflow_run SET epoch = epoch + 1" + " WHERE run_id = ?",
					runId);

		executor.wake(runId);

		await().atMost(Duration.ofSeconds(10)).until(() -> !executor.holds(runId));
		assertThat(executor.slots()).doesNotContainKey(runId);
		assertThat(this.engines.count("history")).isEqualTo(history);
	}

}
