package dev.durable.workflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The durable semaphore: never more holders than permits, checked by a fencing-token
 * table.
 */
class WorkflowSemaphoreTest {

	static final AtomicInteger HOLDERS = new AtomicInteger();

	static final AtomicInteger MAX_HOLDERS = new AtomicInteger();

	/** The resource: per slot, the fencing token (permit run id) allowed to use it. */
	static final Map<String, String> FENCE = new ConcurrentHashMap<>();

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Gpu {

		public void enter(String slot, String token) {
			FENCE.put(slot, token);
			int now = HOLDERS.incrementAndGet();
			MAX_HOLDERS.accumulateAndGet(now, Math::max);
		}

		public boolean leave(String slot, String token) {
			HOLDERS.decrementAndGet();
			return token.equals(FENCE.get(slot));
		}

	}

	/** Holds a permit for a minute of workflow time. */
	@Workflow("gpu-user")
	public static class GpuUser {

		private final Gpu gpu;

		public GpuUser(Gpu gpu) {
			this.gpu = gpu;
		}

		@WorkflowRun
		public String run(String name) {
			WorkflowSemaphore semaphore = new WorkflowSemaphore("gpu-pool", 3, Duration.ofSeconds(5),
					Duration.ofMinutes(1));
			WorkflowSemaphore.Permit permit = semaphore.acquire(Duration.ofMinutes(10));
			this.gpu.enter(permit.slot(), permit.runId());
			Workflows.sleep(Duration.ofMinutes(1));
			boolean fenced = this.gpu.leave(permit.slot(), permit.runId());
			permit.release();
			return name + (fenced ? " ok" : " fenced out");
		}

	}

	@Test
	void twentyWorkflowsShareThreePermits() {
		HOLDERS.set(0);
		MAX_HOLDERS.set(0);
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(GpuUser.class).registerActivities(new Gpu()));
		List<WorkflowHandle<String>> users = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			users.add(engine.client().start(GpuUser::run, "user-" + i, StartOptions.withId("user-" + i)));
		}
		await().atMost(Duration.ofSeconds(90)).until(() -> {
			this.engines.clock.advance(Duration.ofSeconds(20));
			return users.stream().allMatch((u) -> u.describe().status().isClosed());
		});
		for (WorkflowHandle<String> user : users) {
			assertThat(user.result(Duration.ofSeconds(5))).endsWith(" ok");
		}
		assertThat(MAX_HOLDERS.get()).isBetween(1, 3);
		Engines.assertReplays(engine, users.get(0).runId());
	}

	@Test
	void aHolderWhoseRunDiesFreesItsSlot() {
		HOLDERS.set(0);
		MAX_HOLDERS.set(0);
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(GpuUser.class).registerActivities(new Gpu()));
		List<WorkflowHandle<String>> holders = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			holders.add(engine.client().start(GpuUser::run, "holder-" + i, StartOptions.withId("holder-" + i)));
		}
		await().until(() -> HOLDERS.get() == 3);
		// the backstop: each permit run closes by itself a minute past its ten-minute
		// lease
		assertThat(this.engines.jdbc()
			.queryForList("SELECT extract(epoch FROM execution_deadline - created_at)::int AS s FROM "
					+ this.engines.schema + ".workflow_run WHERE workflow_id LIKE 'permit:gpu-pool:%'", Integer.class))
			.hasSize(3)
			.containsOnly(11 * 60);
		WorkflowHandle<String> waiting = engine.client().start(GpuUser::run, "waiting", StartOptions.withId("waiting"));
		await().until(() -> waiting.describe().workflowTasks() >= 2);
		assertThat(HOLDERS.get()).isEqualTo(3);
		holders.get(0).terminate("holder crashed");
		HOLDERS.decrementAndGet(); // the terminated holder never left
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			this.engines.clock.advance(Duration.ofSeconds(5));
			return HOLDERS.get() == 3 && waiting.describe().pendingActivities().isEmpty();
		});
		assertThat(holders.get(0).describe().status()).isEqualTo(WorkflowStatus.TERMINATED);
	}

}
