package dev.durable.workflow.fault;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.PendingActivityState;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleActionResult;
import dev.durable.workflow.client.schedule.ScheduleOverlapPolicy;
import dev.durable.workflow.client.schedule.ScheduleSpec;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.FailingClockReads;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Nodes whose clocks disagree with the database's, one 30 seconds ahead and one 30
 * seconds behind, still agree on when things are due: every durable decision is judged on
 * the database's clock. Each check reads {@code clock_timestamp()} where the decision
 * took effect (an activity right after it) and compares it with the time the decision was
 * due by the database's clock.
 *
 * <p>
 * Real time, not a settable clock: the point is the database's clock, which a test cannot
 * move. The engine corrects each node's clock by an offset measured over round trips, so
 * its times are off the database's by at most half a round trip: sub-millisecond on this
 * loopback, but {@link #BOUND} allows for a round trip stretched by a loaded machine;
 * "not much later" allows for the poll interval and a loaded machine ({@link #LATE}).
 * Both are far below the skew.
 */
class ClockSkewIT {

	private static final Duration SKEW = Duration.ofSeconds(30);

	/** How far before its time by the database's clock a decision may take effect. */
	private static final Duration BOUND = Duration.ofMillis(500);

	/** How far after its time by the database's clock a decision may take effect. */
	private static final Duration LATE = Duration.ofSeconds(8);

	/**
	 * How much later than its admission a run's first activity may read the database's
	 * clock.
	 */
	private static final Duration START_LAG = Duration.ofMillis(1500);

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
		DbTime.READS.clear();
	}

	/** Reads the database's clock and remembers the reading under a tag. */
	@Activity
	public static class DbTime {

		static final Map<String, List<Instant>> READS = new ConcurrentHashMap<>();

		private final JdbcTemplate jdbc;

		public DbTime(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		public String read(String tag) {
			Instant now = this.jdbc.queryForObject("SELECT clock_timestamp()", Timestamp.class).toInstant();
			READS.computeIfAbsent(tag, (k) -> new CopyOnWriteArrayList<>()).add(now);
			return now.toString();
		}

	}

	/** Reads the database's clock, sleeps, reads it again. */
	@Workflow("skew-timer")
	public static class TimerWorkflow {

		static final Duration SLEEP = Duration.ofSeconds(3);

		private final DbTime db;

		public TimerWorkflow(DbTime db) {
			this.db = db;
		}

		@WorkflowRun
		public String run(String id) {
			this.db.read(id + "/before");
			Workflows.sleep(SLEEP);
			return this.db.read(id + "/after");
		}

	}

	/** Waits for a signal, then reads the database's clock. */
	@Workflow(value = "skew-waiter", receives = "go")
	public static class WaiterWorkflow {

		private final DbTime db;

		public WaiterWorkflow(DbTime db) {
			this.db = db;
		}

		@WorkflowRun
		public String run(String id) {
			Workflows.receive("go", String.class);
			return this.db.read(id + "/after");
		}

	}

	/**
	 * Reads the database's clock under its workflow id; returns its own time and the
	 * reading.
	 */
	@Workflow("skew-stamp")
	public static class StampWorkflow {

		private final DbTime db;

		public StampWorkflow(DbTime db) {
			this.db = db;
		}

		@WorkflowRun
		public String run(String ignored) {
			Instant now = Workflows.now();
			return now + " " + this.db.read(Workflows.info().workflowId());
		}

	}

	/** Fails every attempt. */
	@Activity
	public static class Failing {

		public String fail(String id) {
			throw new IllegalStateException("simulated failure of " + id);
		}

	}

	/** Calls an activity that fails, retried after {@link #BACKOFF}. */
	@Workflow("skew-retrying")
	public static class RetryingWorkflow {

		static final Duration BACKOFF = Duration.ofSeconds(20);

		@WorkflowRun
		public String run(String id) {
			ActivityOptions options = ActivityOptions.builder()
				.startToCloseTimeout(Duration.ofSeconds(10))
				.retryPolicy(new RetryPolicy(BACKOFF, 2.0, null, 0, List.of()))
				.build();
			return Workflows.activity("fail", options).execute(String.class, id);
		}

	}

	/**
	 * The system clock moved by an offset a test sets: a node's clock stepped while it
	 * runs.
	 */
	static final class SteppedClock extends Clock {

		volatile Duration offset = Duration.ZERO;

		@Override
		public Instant instant() {
			return Clock.systemUTC().instant().plus(this.offset);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

	}

	private WorkflowEngine.Builder node(Duration skew) {
		return this.engines.builder()
			.clock(Clock.offset(Clock.systemUTC(), skew))
			.register(TimerWorkflow.class, WaiterWorkflow.class, StampWorkflow.class, RetryingWorkflow.class)
			.registerActivities(new DbTime(this.engines.jdbc()), new Failing());
	}

	private static Instant read(String tag) {
		List<Instant> reads = DbTime.READS.get(tag);
		assertThat(reads).as("readings of %s", tag).hasSize(1);
		return reads.get(0);
	}

	private static void assertOnTime(Instant actual, Instant due, String what) {
		assertThat(actual).as("%s by the database's clock (due %s)", what, due)
			.isAfterOrEqualTo(due.minus(BOUND))
			.isBefore(due.plus(LATE));
	}

	/**
	 * A timer set on one node and fired on another, whichever way their clocks disagree,
	 * fires its sleep after the reading before it by the database's clock: not early, not
	 * a minute late.
	 */
	@Test
	void aTimerHandedToAnotherNodeFiresOnTimeByTheDatabasesClock() {
		handOverTimer("behind-to-ahead", SKEW.negated(), SKEW);
		handOverTimer("ahead-to-behind", SKEW, SKEW.negated());
	}

	private void handOverTimer(String id, Duration setter, Duration firer) {
		WorkflowEngine first = this.engines.start(node(setter));
		first.client().start(TimerWorkflow::run, id, StartOptions.withId(id));
		await().until(
				() -> this.engines.jdbc()
					.queryForObject(
							"SELECT count(*) FROM " + this.engines.schema + ".timer t JOIN " + this.engines.schema
									+ ".workflow_run r USING (run_id) WHERE r.workflow_id = ?",
							Integer.class, id) == 1);
		first.shutdown(); // releases the run: the other node fires its timer
		WorkflowEngine second = this.engines.start(node(firer));
		await().atMost(TimerWorkflow.SLEEP.plus(LATE).plus(Duration.ofSeconds(5)))
			.until(() -> DbTime.READS.containsKey(id + "/after"));
		assertOnTime(read(id + "/after"), read(id + "/before").plus(TimerWorkflow.SLEEP), "the timer of " + id);
		second.shutdown();
	}

	/**
	 * A node that stops heartbeating loses its run to a node 60 seconds behind it after
	 * dead-after by the database's clock, counted from its last heartbeat: not early, not
	 * late.
	 */
	@Test
	void aTakeoverHappensDeadAfterTheLastHeartbeatByTheDatabasesClock() {
		Duration deadAfter = Duration.ofSeconds(3);
		StallingHooks hooks = new StallingHooks();
		WorkflowEngine ahead = this.engines.start(node(SKEW).deadAfter(deadAfter).hooks(hooks));
		WorkflowEngine behind = this.engines.start(node(SKEW.negated()).deadAfter(deadAfter));
		WorkflowHandle<String> handle = ahead.client()
			.start(WaiterWorkflow::run, "taken", StartOptions.withId("taken"));
		await().until(() -> handle.describe().workflowTasks() == 1);
		UUID aheadId = EngineInternals.node(ahead).nodeId();
		String lastBeat = "SELECT last_heartbeat FROM " + this.engines.schema + ".node WHERE node_id = ?";
		// the node is stuck: no more heartbeats, and its task for the signal never
		// commits
		hooks.stallHeartbeats = true;
		hooks.stallCommits = true;
		await().until(() -> this.engines.jdbc()
			.queryForObject("SELECT clock_timestamp() - (" + lastBeat + ") > interval '1 second'", Boolean.class,
					aheadId));
		Instant last = this.engines.jdbc().queryForObject(lastBeat, Timestamp.class, aheadId).toInstant();
		try {
			behind.client().handle("taken").signal("go", "now");
			await().atMost(deadAfter.plus(LATE).plus(Duration.ofSeconds(5)))
				.until(() -> DbTime.READS.containsKey("taken/after"));
			assertOnTime(read("taken/after"), last.plus(deadAfter), "the takeover");
		}
		finally {
			hooks.release();
		}
	}

	/**
	 * A queue's rate limit holds across nodes 60 seconds apart: of a queue of two starts
	 * per ten seconds, no three start within ten seconds of the database's clock. The
	 * node behind admits the first two; the node ahead joins while they fill the window.
	 * A start is read by its run's first activity, after a workflow task: on a loaded
	 * machine that lags the admission by up to a second or so, hence the allowance of
	 * {@link #START_LAG}.
	 */
	@Test
	void aRateLimitHoldsAcrossSkewedNodes() {
		Duration period = Duration.ofSeconds(10);
		QueueDefinition limited = QueueDefinition.named("skewed").withRateLimit(2, period);
		this.engines.start(node(SKEW.negated()).queue(limited));
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false).queue(limited));
		for (int i = 0; i < 8; i++) {
			client.client()
				.start(StampWorkflow::run, "r",
						StartOptions.builder().workflowId("rated-" + i).queue("skewed").build());
		}
		await().until(() -> startsOf("rated-").size() >= 2);
		this.engines.start(node(SKEW).queue(limited));
		// two windows' worth: a third start in the first window shows in its first
		// seconds already
		await().atMost(period.plus(LATE).plus(Duration.ofSeconds(5))).until(() -> startsOf("rated-").size() >= 4);
		List<Instant> starts = startsOf("rated-");
		for (int i = 0; i + 2 < starts.size(); i++) {
			assertThat(Duration.between(starts.get(i), starts.get(i + 2)))
				.as("time between starts %d and %d of %s", i, i + 2, starts)
				.isGreaterThanOrEqualTo(period.minus(BOUND).minus(START_LAG));
		}
	}

	private static List<Instant> startsOf(String prefix) {
		List<Instant> starts = new ArrayList<>();
		DbTime.READS.forEach((tag, reads) -> {
			if (tag.startsWith(prefix)) {
				starts.addAll(reads);
			}
		});
		starts.sort(null);
		return starts;
	}

	/**
	 * A schedule served by nodes 60 seconds apart starts each of its times once, at that
	 * time by the database's clock.
	 */
	@Test
	void aScheduleFiresEachTimeOnceAtItsTimeByTheDatabasesClock() {
		WorkflowEngine ahead = this.engines.start(node(SKEW));
		this.engines.start(node(SKEW.negated()));
		ahead.client()
			.schedules()
			.create("skewed",
					Schedule
						.of(ScheduleSpec.every(Duration.ofSeconds(4)),
								ScheduleAction.startWorkflow(StampWorkflow::run, "s"))
						.withOverlapPolicy(ScheduleOverlapPolicy.ALLOW_ALL));
		await().atMost(Duration.ofSeconds(8).plus(LATE).plus(Duration.ofSeconds(5)))
			.until(() -> ahead.client()
				.schedules()
				.describe("skewed")
				.recentActions()
				.stream()
				.filter((a) -> DbTime.READS.containsKey(a.workflowId()))
				.count() >= 2);
		List<ScheduleActionResult> actions = ahead.client().schedules().describe("skewed").recentActions();
		assertThat(actions.stream().map(ScheduleActionResult::nominalTime).distinct()).hasSameSizeAs(actions);
		for (ScheduleActionResult action : actions) {
			assertThat(this.engines.jdbc()
				.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".workflow_run WHERE workflow_id = ?",
						Integer.class, action.workflowId()))
				.as("runs of %s", action.workflowId())
				.isEqualTo(1);
			if (DbTime.READS.containsKey(action.workflowId())) {
				assertOnTime(read(action.workflowId()), action.nominalTime(), "the start of " + action.workflowId());
			}
		}
	}

	/**
	 * What a run shows of time agrees with the database's clock on every node: its
	 * {@code Workflows.now()} and its start time as described.
	 */
	@Test
	void theTimesARunShowsAgreeWithTheDatabasesClock() {
		for (Duration skew : List.of(SKEW, SKEW.negated())) {
			WorkflowEngine node = this.engines.start(node(skew));
			String id = "shown-" + skew.toSeconds();
			WorkflowHandle<String> handle = node.client().start(StampWorkflow::run, "x", StartOptions.withId(id));
			String[] shown = handle.result(Duration.ofSeconds(20)).split(" ");
			Instant db = Instant.parse(shown[1]);
			// the task's time comes before the activity's reading, by less than a task
			assertOnTime(db, Instant.parse(shown[0]), "Workflows.now() on the node " + skew + " off");
			WorkflowDescription described = node.client().handle(id).describe();
			assertOnTime(db, described.startTime(), "the start time on the node " + skew + " off");
			node.shutdown();
		}
	}

	/**
	 * An engine whose first reads of the database's clock fail (its pool exhausted, the
	 * database slow) does not serve on its own clock, 30 seconds ahead: it reads again
	 * until the database answers, and its first run's times are the database's. Its
	 * heartbeat, which would measure too, is a minute away.
	 */
	@Test
	void anEngineWhoseFirstClockReadsFailStillServesOnTheDatabasesClock() {
		FailingClockReads database = new FailingClockReads(3);
		WorkflowEngine node = this.engines.start(node(SKEW).dataSource(database.dataSource)
			.heartbeatInterval(Duration.ofMinutes(1))
			.deadAfter(Duration.ofMinutes(3)));
		WorkflowHandle<String> handle = node.client().start(StampWorkflow::run, "x", StartOptions.withId("first"));
		String[] shown = handle.result(Duration.ofSeconds(20)).split(" ");
		Instant db = Instant.parse(shown[1]);
		assertOnTime(db, Instant.parse(shown[0]), "Workflows.now() in the first task");
		assertOnTime(db, node.client().handle("first").describe().startTime(), "the first start time");
		assertThat(database.failures).as("clock reads left to fail").hasValue(0);
	}

	/**
	 * A client-only engine (no heartbeat) whose node clock is stepped 30 seconds ahead
	 * after it started measures again and writes its times on the database's clock: a
	 * start delay it gives is due by the database's clock.
	 */
	@Test
	void aClientOnlyEngineMeasuresTheDatabasesClockAgainWhenItsClockIsStepped() {
		SteppedClock clock = new SteppedClock();
		WorkflowEngine client = this.engines.start(this.engines.builder().clock(clock).worker(false));
		this.engines.start(node(Duration.ZERO));
		clock.offset = SKEW;
		Clock engineClock = EngineInternals.node(client).clock();
		await().until(() -> Duration.between(dbNow(), engineClock.instant()).abs().compareTo(BOUND) < 0);
		Duration delay = Duration.ofSeconds(2);
		Instant before = dbNow();
		client.client()
			.start(StampWorkflow::run, "x", StartOptions.builder().workflowId("delayed").startDelay(delay).build());
		await().atMost(delay.plus(LATE).plus(Duration.ofSeconds(5))).until(() -> DbTime.READS.containsKey("delayed"));
		Instant started = read("delayed");
		assertOnTime(started, before.plus(delay), "the delayed start");
	}

	private Instant dbNow() {
		return this.engines.jdbc().queryForObject("SELECT clock_timestamp()", Timestamp.class).toInstant();
	}

	/**
	 * A run described through the node 30 seconds ahead and through the node 30 seconds
	 * behind shows the same times and states (what the REST API and the dashboard show of
	 * it): its start time, and its activity waiting for a retry, with its time and the
	 * state judged on it.
	 */
	@Test
	void aRunDescribedThroughSkewedNodesShowsTheSameTimes() {
		WorkflowEngine ahead = this.engines.start(node(SKEW));
		WorkflowEngine behind = this.engines.start(node(SKEW.negated()));
		Instant before = dbNow();
		ahead.client().start(RetryingWorkflow::run, "r", StartOptions.withId("described"));
		await().until(() -> behind.client()
			.handle("described")
			.describe()
			.pendingActivities()
			.stream()
			.anyMatch((a) -> a.lastFailure() != null));
		WorkflowDescription throughAhead = ahead.client().handle("described").describe();
		WorkflowDescription throughBehind = behind.client().handle("described").describe();
		assertThat(throughAhead).isEqualTo(throughBehind);
		assertThat(throughAhead.status()).isEqualTo(WorkflowStatus.RUNNING);
		assertOnTime(throughAhead.startTime(), before, "the start time");
		assertThat(throughAhead.pendingActivities()).singleElement().satisfies((a) -> {
			assertThat(a.state()).as("state of the activity waiting for its retry")
				.isEqualTo(PendingActivityState.SCHEDULED);
			assertOnTime(a.nextAttemptTime(), before.plus(RetryingWorkflow.BACKOFF), "the retry's time");
		});
	}

}
