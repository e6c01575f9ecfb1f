package dev.durable.workflow.engine;

import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.internal.worker.NodeInternals;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.TestDatabase;
import dev.durable.workflow.testsupport.EngineHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Nothing of a node runs after {@code shutdown()} returns: every background loop was told
 * to stop and has ended, and none of them reaches the database any more. In particular
 * the heartbeat: one under way as the node unregistered found its row gone, took the node
 * for declared dead and registered it anew, leaving a live node that never heartbeats
 * again (and, once the schema was dropped, statements against tables that no longer
 * exist); one that found the node declared dead while it stopped registered it anew as
 * well.
 */
class ShutdownStopsBackgroundLoopsTest {

	/** Holds the stop: the activity runs until the test lets it end. */
	static volatile CountDownLatch release = new CountDownLatch(1);

	static volatile CountDownLatch started = new CountDownLatch(1);

	private final Engines engines = new Engines();

	private final Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());

	@AfterEach
	void close() {
		release.countDown();
		this.engines.close();
		release = new CountDownLatch(1);
		started = new CountDownLatch(1);
	}

	@Activity
	public static class Held {

		public String hold(String input) {
			started.countDown();
			// a cancellation (the node evicting its runs) does not end it: the stop waits
			// for it
			while (true) {
				try {
					release.await(60, TimeUnit.SECONDS);
					return input;
				}
				catch (InterruptedException ex) {
					// held on
				}
			}
		}

	}

	@Workflow("held-by-an-activity")
	public static class HeldByAnActivity {

		private final Held held;

		public HeldByAnActivity(Held held) {
			this.held = held;
		}

		@WorkflowRun
		public String run(String input) {
			return this.held.hold(input);
		}

	}

	/** Counts the heartbeats (each one calls the hook first). */
	static final class CountingHooks implements EngineHooks {

		final AtomicInteger beats = new AtomicInteger();

		@Override
		public void beforeHeartbeat() {
			this.beats.incrementAndGet();
		}

	}

	@Test
	void aHeartbeatUnderWayEndsBeforeTheNodeUnregistersAndDoesNotRegisterItAnew() throws Exception {
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(HeldByAnActivity.class).registerActivities(new Held()));
		UUID node = engine.nodeId();
		Thread heartbeat = engineThread("durable-heartbeat");
		long key = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
		// the next heartbeat is held inside the database, before its row is touched,
		// until the test
		// lets it go: a heartbeat under way, as on a loaded machine
		try (Connection holder = TestDatabase.dataSource().getConnection()) {
			try (Statement statement = holder.createStatement()) {
				statement.execute("SELECT pg_advisory_lock(" + key + ")");
				statement.execute("CREATE FUNCTION " + this.engines.schema + ".hold_heartbeat() RETURNS trigger"
						+ " LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_lock_shared(" + key + ");"
						+ " PERFORM pg_advisory_unlock_shared(" + key + "); RETURN NULL; END $$");
				statement.execute("CREATE TRIGGER hold_heartbeat BEFORE UPDATE ON " + this.engines.schema
						+ ".node FOR EACH STATEMENT EXECUTE FUNCTION " + this.engines.schema + ".hold_heartbeat()");
			}
			await().until(
					() -> this.engines.jdbc()
						.queryForObject(
								"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
										+ " AND ((classid::bigint << 32) | objid::bigint) = ?",
								Integer.class, key) > 0);

			Thread stop = Thread.ofPlatform().name("test-shutdown").start(engine::shutdown);
			// until the stop unregistered the node (it did not wait for the heartbeat),
			// or it waits for
			// the heartbeat to end before it unregisters
			await().until(() -> !nodeRegistered(node) || waitsForTheHeartbeat(stop));
			try (Statement statement = holder.createStatement()) {
				statement.execute("SELECT pg_advisory_unlock(" + key + ")");
			}
			stop.join();
		}
		heartbeat.join();
		assertThat(nodeRegistered(node)).as("node registered after shutdown").isFalse();
		assertNoEngineThreadAlive();
	}

	@Test
	void aNodeDeclaredDeadWhileItStopsDoesNotRegisterAnew() throws Exception {
		CountingHooks hooks = new CountingHooks();
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(HeldByAnActivity.class)
			.registerActivities(new Held())
			.hooks(hooks)
			.shutdownTimeout(java.time.Duration.ofMinutes(1)));
		UUID node = engine.nodeId();
		Thread heartbeat = engineThread("durable-heartbeat");
		engine.client().start(HeldByAnActivity::run, "x", StartOptions.withId("held"));
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

		// the stop waits for the activity; the node heartbeats on meanwhile
		Thread stop = Thread.ofPlatform().name("test-shutdown").start(engine::shutdown);
		await().until(() -> NodeInternals.isStopping(engine));
		long incarnation = incarnation(node);
		this.engines.jdbc()
			.update("UPDATE " + this.engines.schema + ".node SET last_heartbeat = now() - interval '1 hour'"
					+ " WHERE node_id = ?", node);
		int beats = hooks.beats.get();
		// the next heartbeat finds the node declared dead; the one after it shows what it
		// did
		await().until(() -> hooks.beats.get() >= beats + 2 || !heartbeat.isAlive());
		assertThat(incarnation(node)).as("incarnation after the node was declared dead while stopping")
			.isEqualTo(incarnation);

		release.countDown();
		stop.join();
		assertThat(nodeRegistered(node)).as("node registered after shutdown").isFalse();
		assertNoEngineThreadAlive();
	}

	/** The engine's own (platform) thread of that name, started by this test. */
	private Thread engineThread(String name) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> !this.before.contains(thread) && thread.getName().equals(name))
			.findFirst()
			.orElseThrow();
	}

	/**
	 * No thread the engine started in this test is alive (the JVM-wide yield watchdog
	 * aside).
	 */
	private void assertNoEngineThreadAlive() {
		List<String> alive = Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> !this.before.contains(thread) && thread.isAlive())
			.map(Thread::getName)
			.filter((name) -> name.startsWith("durable-") && !name.equals("durable-yield-watchdog"))
			.toList();
		assertThat(alive).as("engine threads alive after shutdown").isEmpty();
	}

	private static boolean waitsForTheHeartbeat(Thread stop) {
		List<String> frames = Arrays.stream(stop.getStackTrace())
			.map((frame) -> frame.getClassName() + "." + frame.getMethodName())
			.toList();
		return frames.stream().anyMatch((frame) -> frame.endsWith("NodeHeartbeat.close"))
				&& frames.stream().anyMatch((frame) -> frame.endsWith("BackgroundThreads.awaitEnded"));
	}

	private boolean nodeRegistered(UUID node) {
		return this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".node WHERE node_id = ?", Integer.class,
					node) > 0;
	}

	private long incarnation(UUID node) {
		return this.engines.jdbc()
			.queryForObject("SELECT incarnation FROM " + this.engines.schema + ".node WHERE node_id = ?", Long.class,
					node);
	}

}
