package dev.durable.workflow.internal.worker;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowEngineListener;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A round of the poll interval leaves a run whose task is running to that task: the task
 * reads what is new, or its commit leaves the run marked (pending input, wake time) for
 * the next round. Scheduling the run again ran a second task, as soon as the first ended,
 * for input the first had already read. (A round a wake-up asks for does schedule it
 * again: SignalDeliveryRaceTest's signal from another node while the parking task
 * commits.)
 */
class FallbackPollTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Workflow(value = "poll-waiter", receives = { "go" })
	public static class Waiter {

		@WorkflowRun
		public String run() {
			return Workflows.receive("go", String.class);
		}

	}

	@Test
	void aPollWhileTheRunsTaskRunsDoesNotRunItAgain() throws Exception {
		StallingHooks hooks = new StallingHooks();
		hooks.stallCommitNumber = 1;
		AtomicInteger tasks = new AtomicInteger();
		// no regular poll: the test runs its poll rounds itself
		WorkflowEngine worker = this.engines.start(this.engines.builder()
			.register(Waiter.class)
			.hooks(hooks)
			.pollInterval(Duration.ofHours(1))
			.listener(new WorkflowEngineListener() {
				@Override
				public Execution workflowTaskStarted(Run run) {
					tasks.incrementAndGet();
					return Execution.NONE;
				}
			}));
		// the worker's start-up rounds are rounds a wake-up asks for (its first one, and
		// the one its listener asks for once it listens), which schedule a run again
		// even while its task runs: they end before the run starts, so that only the
		// start's own wake-up and the test's rounds of the poll interval find it
		await().until(() -> this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE query LIKE ?", Integer.class,
					"LISTEN %" + this.engines.schema + "%") > 0
				&& NodeInternals.poll(EngineInternals.node(worker)).isIdle());
		// started from a node that does not work: the worker claims the run, its first
		// task runs there
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false).register(Waiter.class));
		WorkflowHandle<String> handle = client.client().start(Waiter::run, StartOptions.withId("polled"));

		// the first task parks the run on receive(); its commit is held...
		assertThat(hooks.commitStalled.await(10, TimeUnit.SECONDS)).isTrue();
		// ...while two rounds of the poll interval find the run with work (its
		// pending-input flag is
		// still set)
		NodeInternals.poll(EngineInternals.node(worker)).pollOnce(false);
		NodeInternals.poll(EngineInternals.node(worker)).pollOnce(false);
		assertThat(hooks.holding()).isTrue();
		hooks.release();

		await().until(() -> handle.describe().workflowTasks() == 1 && EngineInternals.node(worker).isIdle());
		assertThat(tasks).as("workflow tasks run").hasValue(1);
		client.client().handle("polled").signal("go", "now");
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("now");
	}

}
