package dev.durable.workflow.schedule;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleActionResult.Outcome;
import dev.durable.workflow.client.schedule.ScheduleClient;
import dev.durable.workflow.client.schedule.ScheduleDescription;
import dev.durable.workflow.client.schedule.ScheduleOverlapPolicy;
import dev.durable.workflow.client.schedule.ScheduleSpec;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.schedule.ScheduleFixtures.Blocker;
import dev.durable.workflow.support.Engines;

import static dev.durable.workflow.schedule.ScheduleFixtures.status;
import static dev.durable.workflow.schedule.ScheduleFixtures.workflowIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Overlap policies, with a workflow that runs until released by a signal: firings every
 * minute at 00:01, 00:02, 00:03 while the first run is still open.
 */
class ScheduleOverlapTest {

	private static final String FIRST = "o-2026-01-01T00:01:00Z";

	private static final String SECOND = "o-2026-01-01T00:02:00Z";

	private static final String THIRD = "o-2026-01-01T00:03:00Z";

	private final Engines engines = new Engines();

	private WorkflowEngine engine;

	private ScheduleClient schedules;

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Creates the schedule and lets the first firing start. */
	private void startWith(ScheduleOverlapPolicy policy) {
		this.engine = this.engines.start(this.engines.builder().register(Blocker.class));
		this.schedules = this.engine.client().schedules();
		this.schedules.create("o",
				Schedule.of(ScheduleSpec.every(Duration.ofMinutes(1)), ScheduleAction.startWorkflow(Blocker::run, "x"))
					.withOverlapPolicy(policy));
		minute();
		await().until(() -> workflowIds(this.engines, "o").equals(List.of(FIRST)));
	}

	/** Moves the clock one minute and steps the schedule. */
	private void minute() {
		this.engines.clock.advance(Duration.ofMinutes(1));
		EngineInternals.scheduleLoop(this.engine).tick();
		// the background loop may have taken the step: wait until it committed
		await().until(() -> describe().nextActionTimes().get(0).isAfter(this.engines.clock.instant()));
	}

	private void release(String workflowId) {
		this.engine.client().handle(workflowId).signal("release", null);
		await().until(() -> status(this.engines, workflowId).equals("COMPLETED"));
	}

	private ScheduleDescription describe() {
		return this.schedules.describe("o");
	}

	@Test
	void skipDropsFiringsWhileTheRunIsOpen() {
		startWith(ScheduleOverlapPolicy.SKIP);
		minute();
		assertThat(workflowIds(this.engines, "o")).containsExactly(FIRST);
		assertThat(describe().recentActions().get(0).outcome()).isEqualTo(Outcome.SKIPPED);
		release(FIRST);
		minute();
		await().until(() -> workflowIds(this.engines, "o").equals(List.of(FIRST, THIRD)));
		assertThat(describe().skippedCount()).isEqualTo(1);
	}

	@Test
	void bufferOneKeepsOneFiringForWhenTheRunCloses() {
		startWith(ScheduleOverlapPolicy.BUFFER_ONE);
		minute();
		minute();
		assertThat(workflowIds(this.engines, "o")).containsExactly(FIRST);
		ScheduleDescription waiting = describe();
		assertThat(waiting.bufferedCount()).isEqualTo(1);
		assertThat(waiting.skippedCount()).isEqualTo(1);
		release(FIRST);
		// the buffered firing starts once the poll sees the run closed; no clock move
		// needed
		await().until(() -> workflowIds(this.engines, "o").equals(List.of(FIRST, SECOND)));
		assertThat(describe().bufferedCount()).isZero();
		assertThat(describe().runningWorkflowIds()).containsExactly(SECOND);
	}

	@Test
	void bufferAllStartsEveryFiringOneAfterAnother() {
		startWith(ScheduleOverlapPolicy.BUFFER_ALL);
		minute();
		minute();
		assertThat(describe().bufferedCount()).isEqualTo(2);
		release(FIRST);
		await().until(() -> workflowIds(this.engines, "o").equals(List.of(FIRST, SECOND)));
		assertThat(describe().bufferedCount()).isEqualTo(1);
		release(SECOND);
		await().until(() -> workflowIds(this.engines, "o").equals(List.of(FIRST, SECOND, THIRD)));
		assertThat(describe().bufferedCount()).isZero();
		assertThat(describe().actionCount()).isEqualTo(3);
	}

	@Test
	void cancelOtherCancelsTheRunAndStartsWhenItClosed() {
		startWith(ScheduleOverlapPolicy.CANCEL_OTHER);
		minute();
		await().until(() -> status(this.engines, FIRST).equals("CANCELED"));
		await().until(() -> workflowIds(this.engines, "o").equals(List.of(FIRST, SECOND)));
		assertThat(describe().runningWorkflowIds()).containsExactly(SECOND);
	}

	@Test
	void terminateOtherTerminatesTheRunAndStartsAtOnce() {
		startWith(ScheduleOverlapPolicy.TERMINATE_OTHER);
		minute();
		assertThat(status(this.engines, FIRST)).isEqualTo("TERMINATED");
		assertThat(workflowIds(this.engines, "o")).containsExactly(FIRST, SECOND);
		assertThat(describe().runningWorkflowIds()).containsExactly(SECOND);
	}

	@Test
	void allowAllStartsWhateverRuns() {
		startWith(ScheduleOverlapPolicy.ALLOW_ALL);
		minute();
		minute();
		assertThat(workflowIds(this.engines, "o")).containsExactly(FIRST, SECOND, THIRD);
		assertThat(describe().runningWorkflowIds()).containsExactly(FIRST, SECOND, THIRD);
	}

	@Test
	void aWorkflowIdInUseIsASkippedFiringNotAnError() {
		startWith(ScheduleOverlapPolicy.ALLOW_ALL);
		// someone else holds the id of the next firing
		this.engine.client().start(Blocker::run, "mine", StartOptions.withId(SECOND));
		minute();
		assertThat(describe().recentActions().get(0).outcome()).isEqualTo(Outcome.SKIPPED);
		assertThat(describe().recentActions().get(0).reason()).contains("already running");
		minute();
		assertThat(workflowIds(this.engines, "o")).containsExactly(FIRST, SECOND, THIRD);
		assertThat(describe().actionCount()).isEqualTo(2);
	}

}
