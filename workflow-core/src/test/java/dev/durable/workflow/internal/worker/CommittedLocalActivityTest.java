package dev.durable.workflow.internal.worker;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.testsupport.EngineHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A local activity whose task commits never runs again, even when the node is declared
 * dead while that commit is under way. The node evicts the run and registers anew; as no
 * other node took the run, its poll takes it up again at the same epoch. The new task
 * must wait for the one whose commit is under way: started beside it, it read the history
 * without the activity's marker and ran the activity a second time, while the first
 * task's commit went through. Likewise a close whose compare-and-set failed only because
 * a node began to wait for the run's result meanwhile is made again with that flag,
 * without running the task's code (and its local activities) again.
 */
class CommittedLocalActivityTest {

	static final List<String> EXECUTIONS = new CopyOnWriteArrayList<>();

	private final Engines engines = new Engines();

	private final HoldingHooks hooks = new HoldingHooks();

	@AfterEach
	void close() {
		this.hooks.release.countDown();
		this.engines.close();
		EXECUTIONS.clear();
	}

	@Activity
	public static class Steps {

		public String step(String input, int number) {
			EXECUTIONS.add("step" + number + "#" + ActivityContext.current().info().attempt());
			return input + "+" + number;
		}

	}

	@Workflow("committed-local-around-a-timer")
	public static class AroundATimer {

		@WorkflowRun
		public String run(String input) {
			Steps steps = Workflows.localActivities(Steps.class);
			String first = steps.step(input, 1);
			Workflows.sleep(Duration.ofMinutes(1));
			return steps.step(first, 2);
		}

	}

	/** Once armed, holds the next task commit until released. */
	static final class HoldingHooks implements EngineHooks {

		volatile boolean armed;

		final CountDownLatch held = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		@Override
		public void beforeTaskCommit(UUID runId) {
			if (this.armed) {
				this.armed = false;
				this.held.countDown();
				try {
					this.release.await(60, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

	@Test
	void aTaskTakenUpAgainAfterTheNodeWasDeclaredDeadWaitsForTheCommitUnderWay() throws Exception {
		// no regular poll: the test runs the round that takes the run up again itself
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(AroundATimer.class)
			.registerActivities(new Steps())
			.hooks(this.hooks)
			.pollInterval(Duration.ofHours(1)));
		Engine node = EngineInternals.node(engine);
		WorkflowHandle<String> handle = engine.client()
			.start(AroundATimer::run, "x", StartOptions.withId("committed-local"));
		await().until(() -> this.engines.count("history") == 1);
		UUID runId = handle.describe().runId();

		// the timer fires: the task runs step 2, and its commit is held
		this.hooks.armed = true;
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(this.hooks.held.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(EXECUTIONS).containsExactly("step1#1", "step2#1");

		// the node is declared dead meanwhile: its heartbeat evicts every run and
		// registers anew
		long incarnation = incarnation(node);
		this.engines.jdbc()
			.update("UPDATE " + this.engines.schema + ".node SET last_heartbeat = now() - interval '1 hour'"
					+ " WHERE node_id = ?", node.nodeId());
		await().until(() -> incarnation(node) > incarnation);

		// no other node took the run: the poll finds it still owned by this node, at its
		// epoch
		NodeInternals.poll(node).pollOnce(true);
		// the run taken up again either ran a task beside the held one (step 2 again), or
		// waits for it
		await().until(() -> EXECUTIONS.size() > 2 || NodeInternals.executor(node).slots().get(runId) == null);

		this.hooks.release.countDown();
		// the run is not read for its result before it closed: a waiter's mark on the
		// open run would
		// fail the held task's close (it runs again, local activities included, as it did
		// not commit)
		await().until(() -> this.engines.count("history") == 2 && node.isIdle());
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("x+1+2");
		assertThat(EXECUTIONS).containsExactly("step1#1", "step2#1");
		assertThat(this.engines.count("history")).isEqualTo(2);
	}

	@Test
	void aCloseThatAWaiterElsewhereRacedIsMadeAgainWithoutRunningTheLocalActivityAgain() throws Exception {
		WorkflowEngine engine = this.engines.start(
				this.engines.builder().register(AroundATimer.class).registerActivities(new Steps()).hooks(this.hooks));
		Engine node = EngineInternals.node(engine);
		WorkflowHandle<String> handle = engine.client()
			.start(AroundATimer::run, "x", StartOptions.withId("committed-local-awaited"));
		await().until(() -> this.engines.count("history") == 1);
		UUID runId = handle.describe().runId();

		// the timer fires: the task runs step 2 and would close the run; its commit is
		// held...
		this.hooks.armed = true;
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(this.hooks.held.await(10, TimeUnit.SECONDS)).isTrue();
		// ...while a node that does not hold the run begins to wait for its result and
		// marks it
		this.engines.jdbc()
			.update("UPDATE " + this.engines.schema + ".workflow_run SET result_awaited = true WHERE run_id = ?",
					runId);
		this.hooks.release.countDown();

		await().until(() -> this.engines.count("history") == 2 && node.isIdle());
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("x+1+2");
		assertThat(EXECUTIONS).containsExactly("step1#1", "step2#1");
	}

	private long incarnation(Engine node) {
		return this.engines.jdbc()
			.queryForObject("SELECT incarnation FROM " + this.engines.schema + ".node WHERE node_id = ?", Long.class,
					node.nodeId());
	}

}
