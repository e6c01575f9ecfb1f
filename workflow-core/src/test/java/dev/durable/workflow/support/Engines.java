package dev.durable.workflow.support;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventType;
import dev.durable.workflow.internal.history.StoredEvent;
import dev.durable.workflow.internal.worker.Engine;
import dev.durable.workflow.testsupport.SettableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Engines of one test, on one fresh schema, with short intervals and a settable clock;
 * closed after the test.
 */
public final class Engines implements AutoCloseable {

	public final String schema;

	public final SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));

	private final List<WorkflowEngine> engines = new ArrayList<>();

	/**
	 * Engines on a schema created migrated (see {@link TestDatabase#migratedSchema()}).
	 */
	public Engines() {
		this(TestDatabase.migratedSchema());
	}

	private Engines(String schema) {
		this.schema = schema;
	}

	/**
	 * Engines on a schema that does not exist yet: the first start migrates it, as a
	 * node's first start does in production.
	 */
	public static Engines onNewSchema() {
		return new Engines(TestDatabase.newSchema());
	}

	/** A builder on the test schema, clock and fast intervals. */
	public WorkflowEngine.Builder builder() {
		return WorkflowEngine.builder()
			.dataSource(TestDatabase.dataSource())
			.schema(this.schema)
			.clock(this.clock)
			.pollInterval(Duration.ofMillis(100))
			.heartbeatInterval(Duration.ofMillis(200))
			.deadAfter(Duration.ofSeconds(1))
			.taskTimeout(Duration.ofSeconds(5))
			// longer than the lease these intervals leave: a loaded test machine's slow
			// statement is no outage
			.statementTimeout(Duration.ofSeconds(5))
			// likewise for a transaction idle between two statements (the default, the
			// lease, is 0.8 s here); it is a session setting, so the tests' own
			// transactions on the shared pool's connections get it too
			.idleInTransactionTimeout(Duration.ofSeconds(5))
			.shutdownTimeout(Duration.ofSeconds(5));
	}

	/** Builds and starts an engine, closed with this fixture. */
	public WorkflowEngine start(WorkflowEngine.Builder builder) {
		WorkflowEngine engine = builder.build();
		this.engines.add(engine);
		return engine.start();
	}

	public JdbcTemplate jdbc() {
		return TestDatabase.jdbc();
	}

	public int count(String table) {
		return jdbc().queryForObject("SELECT count(*) FROM " + this.schema + "." + table, Integer.class);
	}

	/**
	 * Replays the run's stored history from scratch on a fresh instance and requires the
	 * code to issue exactly the recorded commands, task by task.
	 */
	public static void assertReplays(WorkflowEngine engine, UUID runId) {
		List<Engine.ReplayedTask> tasks = EngineInternals.node(engine).replay(runId);
		assertThat(tasks).as("replayed tasks").isNotEmpty();
		for (Engine.ReplayedTask task : tasks) {
			List<Event> recorded = task.record().commands();
			List<Event> issued = task.issued();
			assertThat(issued).as("commands of task %d", task.record().seq()).hasSameSizeAs(recorded);
			for (int i = 0; i < recorded.size(); i++) {
				Event r = recorded.get(i);
				Event c = issued.get(i);
				assertThat(c.sameCommand(r))
					.as("command %d of task %d: %s vs %s", i, task.record().seq(), c.describe(), r.describe())
					.isTrue();
				if (r.type() != EventType.SIDE_EFFECT && r.type() != EventType.VERSION_MARKER) {
					assertThat(StoredEvent.of(c).payload()).as("payload of %s", r.describe())
						.isEqualTo(StoredEvent.of(r).payload());
				}
			}
		}
	}

	@Override
	public void close() {
		for (WorkflowEngine engine : this.engines) {
			try {
				engine.shutdown();
			}
			catch (RuntimeException ex) {
				// best effort
			}
		}
	}

}
