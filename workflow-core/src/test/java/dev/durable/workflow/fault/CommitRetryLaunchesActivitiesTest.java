package dev.durable.workflow.fault;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToLongFunction;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.testsupport.EngineHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A workflow task whose commit reached the database but whose acknowledgment was lost
 * (the connection dropped after the server committed): the node retries the task from
 * what the database holds, and the inline activity the committed task scheduled runs,
 * once, although its start, which follows the acknowledgment, never happened. Nothing
 * else would run it: the node still owns the run, so no other node recovers its
 * activities.
 */
class CommitRetryLaunchesActivitiesTest {

	static final AtomicInteger CALLS = new AtomicInteger();

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
		CALLS.set(0);
	}

	@Activity
	public static class Shipping {

		public String ship(String order) {
			CALLS.incrementAndGet();
			return "shipped " + order;
		}

	}

	@Workflow(value = "ship-on-go", receives = "go")
	public static class ShipOnGo {

		private final Shipping shipping;

		public ShipOnGo(Shipping shipping) {
			this.shipping = shipping;
		}

		@WorkflowRun
		public String run(String order) {
			Workflows.receive("go", String.class);
			return this.shipping.ship(order);
		}

	}

	/**
	 * Loses the acknowledgment of the next commit of one run: it is written, and the node
	 * hears a failure.
	 */
	static final class LosingAcknowledgments implements EngineHooks {

		private final ToLongFunction<UUID> historySeq;

		volatile UUID loseNextOf;

		final AtomicInteger lost = new AtomicInteger();

		/** The run's history sequence when the acknowledgment was lost. */
		volatile long seqAtLoss;

		LosingAcknowledgments(ToLongFunction<UUID> historySeq) {
			this.historySeq = historySeq;
		}

		@Override
		public void afterTaskCommit(UUID runId) {
			if (runId.equals(this.loseNextOf)) {
				this.loseNextOf = null;
				// read here: once the hook throws, the retried task may commit again at
				// once
				this.seqAtLoss = this.historySeq.applyAsLong(runId);
				this.lost.incrementAndGet();
				throw new DataAccessResourceFailureException(
						"An I/O error occurred while receiving from the backend (simulated, after the commit)");
			}
		}

	}

	private long historySeq(UUID runId) {
		return this.engines.jdbc()
			.queryForObject("SELECT history_seq FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
					Long.class, runId);
	}

	@Test
	void theActivityOfACommitWhoseAcknowledgmentWasLostRunsOnce() {
		LosingAcknowledgments hooks = new LosingAcknowledgments(this::historySeq);
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(ShipOnGo.class).registerActivities(new Shipping()).hooks(hooks));
		WorkflowHandle<String> handle = engine.client().start(ShipOnGo::run, "order-1", StartOptions.withId("order-1"));
		await().until(() -> historySeq(handle.runId()) >= 1);
		long before = historySeq(handle.runId());

		hooks.loseNextOf = handle.runId();
		handle.signal("go", "now");

		// the commit scheduling the activity landed although the node heard a failure
		await().until(() -> hooks.lost.get() == 1);
		assertThat(hooks.seqAtLoss).isEqualTo(before + 1);
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("shipped order-1");
		assertThat(CALLS.get()).as("the activity ran once").isEqualTo(1);
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aCommitWhoseOutcomeWasUnknownAndThatDidNotLandSchedulesItsActivityOnce() {
		// the failure before the write: nothing was stored, the task runs again and
		// schedules anew
		AtomicInteger failed = new AtomicInteger();
		AtomicInteger armed = new AtomicInteger();
		EngineHooks hooks = new EngineHooks() {
			@Override
			public void beforeTaskCommit(UUID runId) {
				if (armed.get() == 1 && failed.getAndIncrement() == 0) {
					throw new DataAccessResourceFailureException("connection lost before the commit (simulated)");
				}
			}
		};
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(ShipOnGo.class).registerActivities(new Shipping()).hooks(hooks));
		WorkflowHandle<String> handle = engine.client().start(ShipOnGo::run, "order-2", StartOptions.withId("order-2"));
		await().until(() -> historySeq(handle.runId()) >= 1);
		armed.set(1);
		handle.signal("go", "now");
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("shipped order-2");
		assertThat(failed.get()).isGreaterThanOrEqualTo(1);
		assertThat(CALLS.get()).as("the activity ran once").isEqualTo(1);
		Engines.assertReplays(engine, handle.runId());
	}

}
