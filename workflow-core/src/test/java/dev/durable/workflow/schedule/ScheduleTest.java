package dev.durable.workflow.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleActionResult;
import dev.durable.workflow.client.schedule.ScheduleActionResult.Outcome;
import dev.durable.workflow.client.schedule.ScheduleAlreadyExistsException;
import dev.durable.workflow.client.schedule.ScheduleClient;
import dev.durable.workflow.client.schedule.ScheduleDescription;
import dev.durable.workflow.client.schedule.ScheduleNotFoundException;
import dev.durable.workflow.client.schedule.ScheduleOverlapPolicy;
import dev.durable.workflow.client.schedule.ScheduleSpec;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.internal.schedule.ScheduleLoop;
import dev.durable.workflow.schedule.ScheduleFixtures.Blocker;
import dev.durable.workflow.schedule.ScheduleFixtures.Tick;
import dev.durable.workflow.support.Engines;

import static dev.durable.workflow.schedule.ScheduleFixtures.workflowIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Schedules: spec times, bounds, jitter, catch-up, the client's operations, bad input,
 * replay.
 */
class ScheduleTest {

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	private final Engines engines = new Engines();

	private WorkflowEngine engine;

	private ScheduleClient schedules;

	@AfterEach
	void close() {
		this.engines.close();
	}

	private void start() {
		this.engine = this.engines.start(this.engines.builder().register(Tick.class, Blocker.class));
		this.schedules = this.engine.client().schedules();
	}

	private ScheduleLoop loop() {
		return EngineInternals.scheduleLoop(this.engine);
	}

	private void advance(Duration duration) {
		this.engines.clock.advance(duration);
	}

	private static ScheduleAction tick(String input) {
		return ScheduleAction.startWorkflow(Tick::run, input);
	}

	/**
	 * Waits for a scheduled run to close and returns its result. Before the clock moves
	 * to a schedule's next time the run of the previous one must have closed: under the
	 * default overlap policy (SKIP) a time at which it is still open is skipped, and on a
	 * loaded machine a run can take longer to close than a test takes to move the clock.
	 */
	private String closed(String workflowId) {
		return this.engine.client().handle(workflowId, String.class).result(Duration.ofSeconds(10));
	}

	@Test
	void aCronScheduleInATimeZoneFiresAtEachTimeAsTheClockMoves() {
		start();
		this.schedules.create("berlin",
				Schedule.of(ScheduleSpec.cron("0 0 9 * * *", ZoneId.of("Europe/Berlin")), tick("morning")));
		// 09:00 in Berlin is 08:00 UTC in winter
		assertThat(this.schedules.describe("berlin").nextActionTimes())
			.startsWith(Instant.parse("2026-01-01T08:00:00Z"), Instant.parse("2026-01-02T08:00:00Z"));
		advance(Duration.ofHours(7).plusMinutes(59));
		assertThat(loop().tick()).isZero();
		advance(Duration.ofMinutes(1));
		await().until(() -> workflowIds(this.engines, "berlin").size() == 1);
		assertThat(closed("berlin-2026-01-01T08:00:00Z")).isEqualTo("morning@2026-01-01T08:00:00Z");
		advance(Duration.ofDays(1));
		await().until(() -> workflowIds(this.engines, "berlin").size() == 2);
		assertThat(workflowIds(this.engines, "berlin")).containsExactly("berlin-2026-01-01T08:00:00Z",
				"berlin-2026-01-02T08:00:00Z");
		assertThat(closed("berlin-2026-01-02T08:00:00Z")).isEqualTo("morning@2026-01-02T08:00:00Z");
		// a 5-field expression is accepted as in cronSchedule (minute precision)
		this.schedules.create("five-fields", Schedule.of(ScheduleSpec.cron("30 6 * * *"), tick("x")));
		assertThat(this.schedules.describe("five-fields").nextActionTimes().get(0))
			.isEqualTo(Instant.parse("2026-01-03T06:30:00Z"));
	}

	@Test
	void anIntervalWithAnOffsetFiresAtItsPhase() {
		start();
		this.schedules.create("every10",
				Schedule.of(ScheduleSpec.every(Duration.ofMinutes(10), Duration.ofMinutes(3)), tick("i")));
		assertThat(this.schedules.describe("every10").nextActionTimes()).containsExactly(T0.plus(Duration.ofMinutes(3)),
				T0.plus(Duration.ofMinutes(13)), T0.plus(Duration.ofMinutes(23)), T0.plus(Duration.ofMinutes(33)),
				T0.plus(Duration.ofMinutes(43)));
		advance(Duration.ofMinutes(3));
		await().until(() -> workflowIds(this.engines, "every10").size() == 1);
		assertThat(closed("every10-2026-01-01T00:03:00Z")).isEqualTo("i@2026-01-01T00:03:00Z");
		advance(Duration.ofMinutes(10));
		await().until(() -> workflowIds(this.engines, "every10").size() == 2);
		assertThat(workflowIds(this.engines, "every10")).containsExactly("every10-2026-01-01T00:03:00Z",
				"every10-2026-01-01T00:13:00Z");
	}

	@Test
	void startAndEndBoundTheTimes() {
		start();
		this.schedules.create("bounded",
				Schedule.of(ScheduleSpec.every(Duration.ofMinutes(1))
					.withStartAt(T0.plus(Duration.ofMinutes(5)))
					.withEndAt(T0.plus(Duration.ofMinutes(8))), tick("b")));
		assertThat(this.schedules.describe("bounded").nextActionTimes()).containsExactly(T0.plus(Duration.ofMinutes(5)),
				T0.plus(Duration.ofMinutes(6)), T0.plus(Duration.ofMinutes(7)));
		for (int minute = 1; minute <= 10; minute++) {
			advance(Duration.ofMinutes(1));
			loop().tick();
			int expected = Math.max(0, Math.min(minute, 7) - 4);
			await().until(() -> workflowIds(this.engines, "bounded").size() == expected);
			if (minute >= 5 && minute <= 7) {
				Instant time = T0.plus(Duration.ofMinutes(minute));
				assertThat(closed("bounded-" + time)).isEqualTo("b@" + time);
			}
		}
		ScheduleDescription description = this.schedules.describe("bounded");
		assertThat(description.nextActionTimes()).isEmpty();
		assertThat(description.actionCount()).isEqualTo(3);
		assertThat(this.schedules.list()).singleElement().satisfies((s) -> assertThat(s.nextActionTime()).isNull());
	}

	@Test
	void jitterDelaysEachFiringWithinItsBoundTheSameWayEveryTime() {
		start();
		Duration jitter = Duration.ofMinutes(10);
		this.schedules.create("jittered",
				Schedule.of(ScheduleSpec.every(Duration.ofHours(1)).withJitter(jitter), tick("j")));
		List<Instant> times = this.schedules.describe("jittered").nextActionTimes();
		assertThat(this.schedules.describe("jittered").nextActionTimes()).isEqualTo(times);
		for (int i = 0; i < times.size(); i++) {
			Instant nominal = T0.plus(Duration.ofHours(i + 1));
			assertThat(times.get(i)).isBetween(nominal, nominal.plus(jitter).minusMillis(1));
		}
		assertThat(times.stream().map((t) -> Duration.between(T0, t).toMinutes() % 60).distinct())
			.hasSizeGreaterThan(1);
		Instant due = times.get(0);
		this.engines.clock.set(due.minusMillis(1));
		assertThat(loop().tick()).isZero();
		assertThat(workflowIds(this.engines, "jittered")).isEmpty();
		this.engines.clock.set(due);
		await().until(() -> workflowIds(this.engines, "jittered").size() == 1);
		// the workflow id names the nominal time, not the jittered one
		assertThat(workflowIds(this.engines, "jittered")).containsExactly("jittered-2026-01-01T01:00:00Z");
	}

	@Test
	void afterDowntimeOnlyTimesWithinTheCatchupWindowFire() {
		start();
		this.schedules.create("catchup", Schedule.of(ScheduleSpec.every(Duration.ofMinutes(1)), tick("c"))
			.withOverlapPolicy(ScheduleOverlapPolicy.ALLOW_ALL));
		loop().close(); // "down": nothing fires while the clock moves
		advance(Duration.ofMinutes(10));
		assertThat(loop().tick()).isEqualTo(1);
		// 00:01 to 00:08 are older than the one-minute window; 00:09 and 00:10 fire
		assertThat(workflowIds(this.engines, "catchup")).containsExactly("catchup-2026-01-01T00:09:00Z",
				"catchup-2026-01-01T00:10:00Z");
		ScheduleDescription description = this.schedules.describe("catchup");
		assertThat(description.missedCount()).isEqualTo(8);
		assertThat(description.actionCount()).isEqualTo(2);
		assertThat(description.nextActionTimes().get(0)).isEqualTo(T0.plus(Duration.ofMinutes(11)));
	}

	@Test
	void pauseUnpauseTriggerBackfillUpdateDeleteAndDescribe() {
		start();
		this.schedules.create("ops", Schedule.of(ScheduleSpec.every(Duration.ofMinutes(1)),
				ScheduleAction.startWorkflow(Blocker::run, "ops").withWorkflowIdPrefix("job")));
		this.schedules.pause("ops", "maintenance");
		advance(Duration.ofMinutes(3));
		loop().tick();
		assertThat(workflowIds(this.engines, "job")).isEmpty();
		ScheduleDescription paused = this.schedules.describe("ops");
		assertThat(paused.schedule().paused()).isTrue();
		assertThat(paused.schedule().note()).isEqualTo("maintenance");

		// a trigger works while paused
		ScheduleActionResult triggered = this.schedules.trigger("ops");
		assertThat(triggered.outcome()).isEqualTo(Outcome.STARTED);
		assertThat(triggered.workflowId()).isEqualTo("job-2026-01-01T00:03:00Z");
		assertThat(this.engine.client().handle(triggered.workflowId()).runId()).isEqualTo(triggered.runId());
		// a second trigger with SKIP overlaps it
		assertThat(this.schedules.trigger("ops").outcome()).isEqualTo(Outcome.SKIPPED);

		this.schedules.unpause("ops", "done");
		advance(Duration.ofMinutes(1));
		loop().tick();
		await()
			.until(() -> this.schedules.describe("ops").nextActionTimes().get(0).isAfter(this.engines.clock.instant()));
		// 00:04 overlaps the triggered run: skipped (times during the pause are not
		// caught up)
		ScheduleDescription described = this.schedules.describe("ops");
		assertThat(described.schedule().paused()).isFalse();
		assertThat(described.recentActions().get(0).nominalTime()).isEqualTo(T0.plus(Duration.ofMinutes(4)));
		assertThat(described.recentActions().get(0).outcome()).isEqualTo(Outcome.SKIPPED);
		assertThat(described.runningWorkflowIds()).containsExactly("job-2026-01-01T00:03:00Z");
		assertThat(described.actionCount()).isEqualTo(1);
		assertThat(described.skippedCount()).isEqualTo(2);
		assertThat(described.schedule().action().input()).isEqualTo("ops");

		// backfill: every time in [start, end) as if it happened, here allowing overlaps
		List<ScheduleActionResult> backfilled = this.schedules.backfill("ops", Instant.parse("2025-12-31T10:00:00Z"),
				Instant.parse("2025-12-31T10:03:00Z"), ScheduleOverlapPolicy.ALLOW_ALL);
		assertThat(backfilled).extracting(ScheduleActionResult::workflowId)
			.containsExactly("job-2025-12-31T10:00:00Z", "job-2025-12-31T10:01:00Z", "job-2025-12-31T10:02:00Z");
		assertThat(backfilled).allSatisfy((r) -> assertThat(r.outcome()).isEqualTo(Outcome.STARTED));
		assertThat(this.schedules.describe("ops").runningWorkflowIds()).hasSize(4);

		// update: another spec and input; the next times are computed from now
		this.schedules.update("ops",
				(s) -> s.withSpec(ScheduleSpec.every(Duration.ofHours(1)))
					.withAction(s.action().withInput("hourly"))
					.withOverlapPolicy(ScheduleOverlapPolicy.ALLOW_ALL));
		ScheduleDescription updated = this.schedules.describe("ops");
		assertThat(updated.nextActionTimes().get(0)).isEqualTo(T0.plus(Duration.ofHours(1)));
		assertThat(updated.schedule().action().input()).isEqualTo("hourly");
		this.engines.clock.set(T0.plus(Duration.ofHours(1)));
		await().until(() -> workflowIds(this.engines, "job").contains("job-2026-01-01T01:00:00Z"));

		// delete: no more firings, running workflows untouched
		this.schedules.delete("ops");
		assertThatThrownBy(() -> this.schedules.describe("ops")).isInstanceOf(ScheduleNotFoundException.class);
		assertThatThrownBy(() -> this.schedules.trigger("ops")).isInstanceOf(ScheduleNotFoundException.class);
		assertThat(this.engines.count("schedule_action")).isZero();
		advance(Duration.ofHours(1));
		assertThat(loop().tick()).isZero();
		assertThat(this.engine.client().handle("job-2026-01-01T00:03:00Z").describe().status().isClosed()).isFalse();
		assertThat(workflowIds(this.engines, "job")).hasSize(5);
	}

	@Test
	void recentActionsArePrunedToTheLastTen() {
		start();
		this.schedules.create("pruned", Schedule.of(ScheduleSpec.every(Duration.ofMinutes(1)), tick("p")));
		for (int i = 0; i < 15; i++) {
			this.schedules.trigger("pruned", ScheduleOverlapPolicy.ALLOW_ALL);
			advance(Duration.ofSeconds(1));
		}
		assertThat(this.schedules.describe("pruned").recentActions()).hasSize(10);
		await().until(() -> this.schedules.describe("pruned").runningWorkflowIds().isEmpty());
		// records of running workflows are kept for the overlap policy; closed ones
		// beyond ten go
		this.schedules.trigger("pruned", ScheduleOverlapPolicy.ALLOW_ALL);
		assertThat(this.engines.count("schedule_action")).isEqualTo(10);
		assertThat(this.schedules.describe("pruned").actionCount()).isEqualTo(16);
	}

	@Test
	void badInputIsRefusedAndWritesNothing() {
		start();
		Schedule good = Schedule.of(ScheduleSpec.every(Duration.ofMinutes(1)), tick("g"));
		assertThatThrownBy(() -> this.schedules.create("unknown",
				Schedule.of(ScheduleSpec.every(Duration.ofMinutes(1)), ScheduleAction.startWorkflow("no-such", null))))
			.isInstanceOf(UnknownWorkflowTypeException.class);
		assertThatThrownBy(() -> ScheduleSpec.cron("every minute")).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid cron schedule");
		assertThatThrownBy(() -> ScheduleSpec.cron("0 0 * * *").withTimeZone("Mars/Olympus_Mons"))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid time zone");
		assertThatThrownBy(() -> ScheduleSpec.every(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> ScheduleSpec.every(Duration.ofSeconds(-5)))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> ScheduleSpec.every(Duration.ofMinutes(1), Duration.ofMinutes(1)))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> this.schedules.create("bad id!", good)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid schedule id");
		assertThatThrownBy(() -> this.schedules.create("x".repeat(256), good))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(
				() -> this.schedules.create("prefixed", good.withAction(tick("g").withWorkflowIdPrefix("a b"))))
			.isInstanceOf(IllegalArgumentException.class);
		assertThat(this.engines.count("schedule")).isZero();
		this.schedules.create("good", good);
		assertThatThrownBy(() -> this.schedules.create("good", good))
			.isInstanceOf(ScheduleAlreadyExistsException.class);
		assertThatThrownBy(
				() -> this.schedules.update("good", (s) -> s.withAction(ScheduleAction.startWorkflow("no-such", null))))
			.isInstanceOf(UnknownWorkflowTypeException.class);
		assertThatThrownBy(() -> this.schedules.backfill("good", T0, T0)).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> this.schedules.pause("missing", null)).isInstanceOf(ScheduleNotFoundException.class);
		assertThatThrownBy(() -> this.schedules.delete("missing")).isInstanceOf(ScheduleNotFoundException.class);
		assertThat(this.engines.count("schedule")).isEqualTo(1);
		assertThat(this.schedules.describe("good").schedule().action().workflowType()).isEqualTo("sched-tick");
		assertThat(this.engines.count("schedule_action")).isZero();
		assertThat(this.engines.count("workflow_run")).isZero();
	}

	@Test
	void aScheduledRunReplays() {
		start();
		this.schedules.create("replayed", Schedule.of(ScheduleSpec.every(Duration.ofMinutes(1)), tick("r")));
		advance(Duration.ofMinutes(1));
		await().until(() -> workflowIds(this.engines, "replayed").size() == 1);
		String workflowId = workflowIds(this.engines, "replayed").get(0);
		assertThat(this.engine.client().handle(workflowId, String.class).result(Duration.ofSeconds(10)))
			.isEqualTo("r@2026-01-01T00:01:00Z");
		UUID runId = this.engine.client().handle(workflowId).runId();
		Engines.assertReplays(this.engine, runId);
	}

}
