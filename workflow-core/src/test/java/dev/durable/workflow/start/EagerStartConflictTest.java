package dev.durable.workflow.start;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowIdConflictPolicy;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Duplicate and concurrent starts of one workflow id: the unique index of open runs lets
 * one run start.
 */
class EagerStartConflictTest extends EagerStartFixture {

	@Test
	void aDuplicateStartIsRefusedByTheUniqueIndexAndWritesNothing() {
		CommitHooks hooks = new CommitHooks();
		WorkflowEngine engine = worker(hooks);
		WorkflowHandle<String> first = engine.client().start(Waiter::run, "first", StartOptions.withId("dup"));
		assertThat(hooks.threads).hasSize(1);

		assertThatThrownBy(() -> engine.client().start(Waiter::run, "second", StartOptions.withId("dup")))
			.isInstanceOf(WorkflowAlreadyStartedException.class)
			.hasMessageContaining(first.runId().toString())
			.satisfies((ex) -> {
				assertThat(((WorkflowAlreadyStartedException) ex).getExistingRunId()).isEqualTo(first.runId());
				assertThat(((WorkflowAlreadyStartedException) ex).getWorkflowId()).isEqualTo("dup");
			});
		// the refused start's first task ran and came to its commit (the run and the task
		// are one
		// insert), and the insert wrote nothing: no row of it is left
		assertThat(hooks.threads).hasSize(2);
		assertOnlyTheFirstRun();

		// USE_EXISTING returns the open run
		WorkflowHandle<String> existing = engine.client()
			.start(Waiter::run, "third",
					StartOptions.builder()
						.workflowId("dup")
						.idConflictPolicy(WorkflowIdConflictPolicy.USE_EXISTING)
						.build());
		assertThat(existing.runId()).isEqualTo(first.runId());
		// a start that may use an open run decides first: no first task ran
		assertThat(hooks.threads).hasSize(2);
		assertOnlyTheFirstRun();

		// the same from a client-only node (not eager)
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		assertThatThrownBy(() -> client.client().start(Waiter::run, "fourth", StartOptions.withId("dup")))
			.isInstanceOf(WorkflowAlreadyStartedException.class)
			.satisfies((ex) -> assertThat(((WorkflowAlreadyStartedException) ex).getExistingRunId())
				.isEqualTo(first.runId()));
		assertOnlyTheFirstRun();

		// the index covers open runs only: once closed, the id starts again
		// (ALLOW_DUPLICATE)
		first.signal("go", "now");
		assertThat(first.result(Duration.ofSeconds(10))).isEqualTo("first now");
		WorkflowHandle<String> again = engine.client().start(Waiter::run, "again", StartOptions.withId("dup"));
		assertThat(again.runId()).isNotEqualTo(first.runId());
		assertThat(this.engines.count("workflow_run")).isEqualTo(2);
		Engines.assertReplays(engine, first.runId());
	}

	private void assertOnlyTheFirstRun() {
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
		assertThat(this.engines.count("run_payload")).isEqualTo(1);
		assertThat(this.engines.count("visibility")).isEqualTo(1);
		assertThat(this.engines.count("history")).isEqualTo(1);
	}

	@Test
	void concurrentStartsOfOneIdStartOneRunAndTheOthersNameIt() throws Exception {
		CommitHooks hooks = new CommitHooks();
		WorkflowEngine engine = worker(hooks);
		int starters = 4;
		CyclicBarrier barrier = new CyclicBarrier(starters);
		List<Future<Object>> outcomes = new ArrayList<>();
		for (int i = 0; i < starters; i++) {
			String prefix = "racer-" + i;
			outcomes.add(this.waiters.submit(() -> {
				barrier.await(10, TimeUnit.SECONDS);
				try {
					return engine.client().start(Waiter::run, prefix, StartOptions.withId("race"));
				}
				catch (WorkflowAlreadyStartedException ex) {
					return ex;
				}
			}));
		}
		List<WorkflowHandle<?>> started = new ArrayList<>();
		List<WorkflowAlreadyStartedException> refused = new ArrayList<>();
		for (Future<Object> outcome : outcomes) {
			Object value = outcome.get(30, TimeUnit.SECONDS);
			if (value instanceof WorkflowHandle<?> handle) {
				started.add(handle);
			}
			else {
				refused.add((WorkflowAlreadyStartedException) value);
			}
		}
		assertThat(started).hasSize(1);
		UUID winner = started.get(0).runId();
		assertThat(refused).hasSize(starters - 1)
			.allSatisfy((ex) -> assertThat(ex.getExistingRunId()).isEqualTo(winner));
		// every racer's first task came to its commit (each is one insert with its run);
		// only the
		// winner's wrote anything
		assertOnlyTheFirstRun();
		assertThat(hooks.threads).hasSize(starters);
		engine.client().handle("race").signal("go", "now");
		assertThat(engine.client().handle("race", String.class).result(Duration.ofSeconds(10))).endsWith(" now");
		Engines.assertReplays(engine, winner);
	}

}
