package dev.durable.workflow.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleActionResult;
import dev.durable.workflow.client.schedule.ScheduleActionResult.Origin;
import dev.durable.workflow.client.schedule.ScheduleActionResult.Outcome;
import dev.durable.workflow.client.schedule.ScheduleClient;
import dev.durable.workflow.client.schedule.ScheduleDescription;
import dev.durable.workflow.client.schedule.ScheduleOverlapPolicy;
import dev.durable.workflow.client.schedule.ScheduleSpec;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.internal.schedule.ScheduleRow;
import dev.durable.workflow.schedule.ScheduleFixtures.Blocker;
import dev.durable.workflow.schedule.ScheduleFixtures.Tick;
import dev.durable.workflow.support.Engines;

import static dev.durable.workflow.schedule.ScheduleFixtures.status;
import static dev.durable.workflow.schedule.ScheduleFixtures.workflowIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Limited actions: a schedule with N remaining actions starts N workflows at its spec's
 * times and then takes no more scheduled actions, whatever the clock does, however many
 * engines race, and across a restart or a step that fails before its commit; triggers and
 * backfills neither count nor stop; an update gives more.
 */
class ScheduleLimitedActionsTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	private WorkflowEngine startEngine() {
		return this.engines.start(this.engines.builder().register(Tick.class, Blocker.class));
	}

	private static Schedule everyMinute(long remaining) {
		return Schedule.of(ScheduleSpec.every(Duration.ofMinutes(1)), ScheduleAction.startWorkflow(Tick::run, "l"))
			.withOverlapPolicy(ScheduleOverlapPolicy.ALLOW_ALL)
			.withCatchupWindow(Duration.ofDays(1))
			.withRemainingActions(remaining);
	}

	private static String at(int minute) {
		return "2026-01-01T00:" + String.format("%02d", minute) + ":00Z";
	}

	@Test
	void aScheduleWithThreeActionsStartsThreeWorkflowsAndThenNoMore() {
		WorkflowEngine engine = startEngine();
		ScheduleClient schedules = engine.client().schedules();
		schedules.create("three", everyMinute(3));
		assertThat(schedules.describe("three").remainingActions()).isEqualTo(3);
		// one jump past ten times: the step stops at the third start
		this.engines.clock.advance(Duration.ofMinutes(10));
		EngineInternals.scheduleLoop(engine).tick();
		await().until(() -> schedules.describe("three").remainingActions() == 0);
		assertThat(workflowIds(this.engines, "three")).containsExactly("three-" + at(1), "three-" + at(2),
				"three-" + at(3));
		for (int minute = 0; minute < 20; minute++) {
			this.engines.clock.advance(Duration.ofMinutes(1));
			assertThat(EngineInternals.scheduleLoop(engine).tick()).isZero();
		}
		ScheduleDescription used = schedules.describe("three");
		assertThat(workflowIds(this.engines, "three")).hasSize(3);
		assertThat(used.actionCount()).isEqualTo(3);
		assertThat(used.remainingActions()).isZero();
		assertThat(used.schedule().remainingActions()).isZero();
		assertThat(used.nextActionTimes()).isEmpty();
		assertThat(used.skippedCount()).isZero();
		assertThat(used.missedCount()).isZero();
		assertThat(schedules.list()).singleElement()
			.satisfies((summary) -> assertThat(summary.nextActionTime()).isNull());
	}

	@Test
	void aScheduleSteppedMinuteByMinuteStopsAtItsLimit() {
		WorkflowEngine engine = startEngine();
		engine.client().schedules().create("steps", everyMinute(4));
		for (int minute = 1; minute <= 12; minute++) {
			this.engines.clock.advance(Duration.ofMinutes(1));
			EngineInternals.scheduleLoop(engine).tick();
		}
		await().until(() -> engine.client().schedules().describe("steps").remainingActions() == 0);
		EngineInternals.scheduleLoop(engine).tick();
		assertThat(workflowIds(this.engines, "steps")).containsExactly("steps-" + at(1), "steps-" + at(2),
				"steps-" + at(3), "steps-" + at(4));
	}

	@Test
	void twoEnginesRacingDoNotStartMoreThanTheLimit() throws Exception {
		WorkflowEngine a = startEngine();
		WorkflowEngine b = startEngine();
		EngineInternals.scheduleLoop(a).close();
		EngineInternals.scheduleLoop(b).close();
		a.client().schedules().create("pair", everyMinute(2));
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			for (int minute = 1; minute <= 4; minute++) {
				// both engines read the row before the time passes, then step it at once
				ScheduleRow readA = EngineInternals.scheduleLoop(a).read("pair").orElseThrow();
				ScheduleRow readB = EngineInternals.scheduleLoop(b).read("pair").orElseThrow();
				this.engines.clock.advance(Duration.ofMinutes(1));
				CyclicBarrier barrier = new CyclicBarrier(2);
				Future<Boolean> first = threads.submit(() -> {
					barrier.await();
					return EngineInternals.scheduleLoop(a).fireDue(readA);
				});
				Future<Boolean> second = threads.submit(() -> {
					barrier.await();
					return EngineInternals.scheduleLoop(b).fireDue(readB);
				});
				// one step commits (or, once the limit is used, one empty step); never
				// both
				assertThat(List.of(first.get(), second.get())).containsOnlyOnce(true);
				EngineInternals.scheduleLoop(a).tick();
				EngineInternals.scheduleLoop(b).tick();
			}
		}
		finally {
			threads.shutdown();
		}
		assertThat(workflowIds(this.engines, "pair")).containsExactly("pair-" + at(1), "pair-" + at(2));
		ScheduleDescription description = a.client().schedules().describe("pair");
		assertThat(description.remainingActions()).isZero();
		assertThat(description.actionCount()).isEqualTo(2);
	}

	@Test
	void backgroundLoopsOfTwoEnginesRacingStopAtTheLimit() {
		WorkflowEngine a = startEngine();
		WorkflowEngine b = startEngine();
		a.client().schedules().create("loops", everyMinute(5));
		for (int minute = 1; minute <= 10; minute++) {
			this.engines.clock.advance(Duration.ofMinutes(1));
			if (minute <= 5) {
				int expected = minute;
				await().until(() -> workflowIds(this.engines, "loops").size() >= expected);
			}
		}
		EngineInternals.scheduleLoop(a).tick();
		EngineInternals.scheduleLoop(b).tick();
		assertThat(workflowIds(this.engines, "loops")).hasSize(5).last().isEqualTo("loops-" + at(5));
		assertThat(b.client().schedules().describe("loops").remainingActions()).isZero();
	}

	@Test
	void aRestartedEngineKeepsTheCount() {
		WorkflowEngine first = startEngine();
		first.client().schedules().create("kept", everyMinute(3));
		this.engines.clock.advance(Duration.ofMinutes(2));
		EngineInternals.scheduleLoop(first).tick();
		await().until(() -> first.client().schedules().describe("kept").remainingActions() == 1);
		first.shutdown();

		WorkflowEngine second = startEngine();
		assertThat(second.client().schedules().describe("kept").remainingActions()).isEqualTo(1);
		this.engines.clock.advance(Duration.ofMinutes(5));
		EngineInternals.scheduleLoop(second).tick();
		await().until(() -> second.client().schedules().describe("kept").remainingActions() == 0);
		EngineInternals.scheduleLoop(second).tick();
		assertThat(workflowIds(this.engines, "kept")).containsExactly("kept-" + at(1), "kept-" + at(2),
				"kept-" + at(3));
	}

	@Test
	void aStepThatFailsBeforeItsCommitNeitherStartsNorCounts() {
		WorkflowEngine engine = startEngine();
		EngineInternals.scheduleLoop(engine).close(); // only this test steps the schedule
		engine.client().schedules().create("crash", everyMinute(2));
		String schema = this.engines.schema;
		// the state write of a step fails after the step started the workflow: a crash
		// before the commit
		this.engines.jdbc()
			.execute("CREATE FUNCTION " + schema + ".crash() RETURNS trigger LANGUAGE plpgsql AS"
					+ " $$ BEGIN RAISE EXCEPTION 'crash before commit'; END $$");
		this.engines.jdbc()
			.execute("CREATE TRIGGER crash BEFORE UPDATE OF state ON " + schema
					+ ".schedule FOR EACH ROW EXECUTE FUNCTION " + schema + ".crash()");
		this.engines.clock.advance(Duration.ofMinutes(1));
		EngineInternals.scheduleLoop(engine).tick();
		assertThat(workflowIds(this.engines, "crash")).isEmpty();
		assertThat(engine.client().schedules().describe("crash").remainingActions()).isEqualTo(2);

		this.engines.jdbc().execute("DROP TRIGGER crash ON " + schema + ".schedule");
		EngineInternals.scheduleLoop(engine).tick();
		assertThat(workflowIds(this.engines, "crash")).containsExactly("crash-" + at(1));
		assertThat(engine.client().schedules().describe("crash").remainingActions()).isEqualTo(1);
	}

	@Test
	void triggersAndBackfillsNeitherCountNorStopAtZero() {
		WorkflowEngine engine = startEngine();
		ScheduleClient schedules = engine.client().schedules();
		schedules.create("manual", everyMinute(1));
		assertThat(schedules.trigger("manual").outcome()).isEqualTo(Outcome.STARTED);
		assertThat(schedules.backfill("manual", Instant.parse("2025-12-31T00:00:00Z"),
				Instant.parse("2025-12-31T00:03:00Z")))
			.extracting(ScheduleActionResult::outcome)
			.containsExactly(Outcome.STARTED, Outcome.STARTED, Outcome.STARTED);
		assertThat(schedules.describe("manual").remainingActions()).isEqualTo(1);

		this.engines.clock.advance(Duration.ofMinutes(3));
		EngineInternals.scheduleLoop(engine).tick();
		await().until(() -> schedules.describe("manual").remainingActions() == 0);
		// the trigger at 00:00, then the one scheduled action
		assertThat(workflowIds(this.engines, "manual")).filteredOn((id) -> id.startsWith("manual-2026"))
			.containsExactly("manual-" + at(0), "manual-" + at(1));

		// used up: explicit requests still start
		this.engines.clock.advance(Duration.ofSeconds(30));
		ScheduleActionResult triggered = schedules.trigger("manual");
		assertThat(triggered.outcome()).isEqualTo(Outcome.STARTED);
		assertThat(triggered.origin()).isEqualTo(Origin.TRIGGERED);
		assertThat(schedules.backfill("manual", Instant.parse("2025-12-30T00:00:00Z"),
				Instant.parse("2025-12-30T00:02:00Z")))
			.extracting(ScheduleActionResult::outcome)
			.containsExactly(Outcome.STARTED, Outcome.STARTED);
		ScheduleDescription description = schedules.describe("manual");
		assertThat(description.remainingActions()).isZero();
		assertThat(description.actionCount()).isEqualTo(1 + 3 + 1 + 1 + 2);
		assertThat(workflowIds(this.engines, "manual")).hasSize(8);
	}

	@Test
	void anUpdateGivesMoreActionsAndCountsTimesFromNow() {
		WorkflowEngine engine = startEngine();
		ScheduleClient schedules = engine.client().schedules();
		schedules.create("more", everyMinute(1));
		this.engines.clock.advance(Duration.ofMinutes(3));
		EngineInternals.scheduleLoop(engine).tick();
		await().until(() -> schedules.describe("more").remainingActions() == 0);

		schedules.update("more", (current) -> current.withRemainingActions(current.remainingActions() + 2));
		ScheduleDescription refilled = schedules.describe("more");
		assertThat(refilled.remainingActions()).isEqualTo(2);
		assertThat(refilled.nextActionTimes()).startsWith(Instant.parse("2026-01-01T00:04:00Z"));
		this.engines.clock.advance(Duration.ofMinutes(5));
		EngineInternals.scheduleLoop(engine).tick();
		await().until(() -> schedules.describe("more").remainingActions() == 0);
		assertThat(workflowIds(this.engines, "more")).containsExactly("more-" + at(1), "more-" + at(4),
				"more-" + at(5));

		// a pause keeps the count; unlimited again: every time fires
		schedules.pause("more", "later");
		assertThat(schedules.describe("more").remainingActions()).isZero();
		schedules.update("more", (current) -> current.withPaused(false, null).withUnlimitedActions());
		assertThat(schedules.describe("more").remainingActions()).isNull();
		this.engines.clock.advance(Duration.ofMinutes(2));
		EngineInternals.scheduleLoop(engine).tick();
		await().until(() -> workflowIds(this.engines, "more").size() == 5);
	}

	@Test
	void aBufferedFiringPastTheLimitIsSkippedAndTriggersStillStart() {
		WorkflowEngine engine = startEngine();
		ScheduleClient schedules = engine.client().schedules();
		schedules.create("buf",
				Schedule.of(ScheduleSpec.every(Duration.ofMinutes(1)), ScheduleAction.startWorkflow(Blocker::run, "b"))
					.withOverlapPolicy(ScheduleOverlapPolicy.BUFFER_ALL)
					.withRemainingActions(1));
		String manual = schedules.trigger("buf").workflowId();
		// 00:01 and 00:02 wait for the triggered run; one action remains for them
		for (int minute = 1; minute <= 2; minute++) {
			this.engines.clock.advance(Duration.ofMinutes(1));
			EngineInternals.scheduleLoop(engine).tick();
			int buffered = minute;
			await().until(() -> schedules.describe("buf").bufferedCount() == buffered);
		}
		engine.client().handle(manual).signal("release", null);
		await().until(() -> workflowIds(this.engines, "buf").contains("buf-" + at(1)));
		assertThat(schedules.describe("buf").remainingActions()).isZero();
		engine.client().handle("buf-" + at(1)).signal("release", null);
		await().until(() -> schedules.describe("buf").bufferedCount() == 0);
		assertThat(workflowIds(this.engines, "buf")).doesNotContain("buf-" + at(2));
		assertThat(schedules.describe("buf").recentActions().get(0).reason()).isEqualTo("no remaining actions");
		assertThat(status(this.engines, "buf-" + at(1))).isEqualTo("COMPLETED");
	}

	@Test
	void remainingActionsMustNotBeNegative() {
		assertThatThrownBy(() -> everyMinute(-1)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("remaining actions");
	}

}
