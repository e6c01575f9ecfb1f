package dev.durable.workflow.test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.testsupport.SettableClock;

/**
 * A workflow engine for tests, with time skipping: on the JVM's shared embedded
 * PostgreSQL (see {@link EmbeddedPostgresSupport}), in a fresh schema dropped by
 * {@link #close()}, with a {@link SettableClock} that a {@link TimeSkipper} moves.
 *
 * <pre>{@code
 * try (TestWorkflowEnvironment env = TestWorkflowEnvironment.create()) {
 *   env.registerWorkflows(ReminderWorkflow.class);
 *   env.registerActivities(mock(Mailer.class));
 *   WorkflowHandle<String> handle = env.client().start(ReminderWorkflow::run, "ada", StartOptions.withId("r-1"));
 *   assertThat(handle.result()).isEqualTo("reminded"); // a 30-day timer, in milliseconds
 * }
 * }</pre>
 *
 * <p>
 * While a caller waits for a result ({@code handle.result()}, an update's result) and
 * every run waits for time, time jumps to the next timer. {@link #sleep(Duration)} moves
 * time explicitly (for instance to send a signal "two days later"). While activity code
 * runs, time runs at real speed and never jumps, so a timer or a timeout due during a
 * long activity fires on time; it jumps only when nothing runs. The engine starts on the
 * first call of {@link #client()}, {@link #engine()} or {@link #start()}; register
 * workflows and activities before.
 */
public final class TestWorkflowEnvironment implements AutoCloseable {

	private final DataSource dataSource;

	private final String schema;

	private final SettableClock clock;

	private final TimeSkipper skipper;

	private final List<Class<?>> workflows = new ArrayList<>();

	private final List<Object> activities = new ArrayList<>();

	private final @Nullable Consumer<WorkflowEngine.Builder> customizer;

	private final List<WorkflowEngine> engines = new CopyOnWriteArrayList<>();

	private volatile @Nullable WorkflowEngine engine;

	private volatile boolean closed;

	private TestWorkflowEnvironment(Builder builder) {
		this.dataSource = (builder.dataSource != null) ? builder.dataSource
				: EmbeddedPostgresSupport.pooledDataSource();
		this.schema = EmbeddedPostgresSupport.newSchemaName();
		this.clock = new SettableClock(builder.startTime);
		this.skipper = new TimeSkipper(this.clock, () -> this.engines);
		this.skipper.setAutoTimeSkipping(builder.autoTimeSkipping);
		this.workflows.addAll(builder.workflows);
		this.activities.addAll(builder.activities);
		this.customizer = builder.customizer;
	}

	/** An environment with default settings; nothing registered, not started. */
	public static TestWorkflowEnvironment create() {
		return builder().build();
	}

	public static Builder builder() {
		return new Builder();
	}

	/** Registers workflow classes; before the engine starts. */
	public TestWorkflowEnvironment registerWorkflows(Class<?>... workflowClasses) {
		checkNotStarted();
		this.workflows.addAll(List.of(workflowClasses));
		return this;
	}

	/**
	 * Registers activity implementations (Mockito mocks of {@code @Activity} interfaces
	 * or classes work too); before the engine starts.
	 */
	public TestWorkflowEnvironment registerActivities(Object... implementations) {
		checkNotStarted();
		this.activities.addAll(List.of(implementations));
		return this;
	}

	private void checkNotStarted() {
		if (this.engine != null) {
			throw new IllegalStateException(
					"The test engine has started: register workflows and activities before the first"
							+ " client() or engine() call");
		}
	}

	/** Starts the engine (idempotent). */
	public synchronized TestWorkflowEnvironment start() {
		if (this.closed) {
			throw new IllegalStateException("The test environment is closed");
		}
		if (this.engine == null) {
			WorkflowEngine.Builder builder = baseBuilder().register(this.workflows.toArray(Class<?>[]::new))
				.registerActivities(this.activities.toArray());
			if (this.customizer != null) {
				this.customizer.accept(builder);
			}
			WorkflowEngine started = builder.build();
			this.engines.add(started);
			started.start();
			this.engine = started;
			this.skipper.start();
		}
		return this;
	}

	/**
	 * A builder on this environment's database, schema and clock, with test intervals
	 * (fast polling, no cache eviction, no retention: the skipped days must not delete
	 * closed runs).
	 */
	public WorkflowEngine.Builder baseBuilder() {
		return WorkflowEngine.builder()
			.dataSource(this.dataSource)
			.schema(this.schema)
			.clock(this.clock)
			.listener(this.skipper.listener())
			.pollInterval(Duration.ofMillis(100))
			.heartbeatInterval(Duration.ofSeconds(1))
			.deadAfter(Duration.ofSeconds(10))
			.cacheIdleTimeout(Duration.ofDays(365 * 100))
			.retention(Duration.ZERO)
			.shutdownTimeout(Duration.ofSeconds(5));
	}

	/**
	 * Starts another engine (node) on the same schema and clock, for tests of several
	 * nodes; it is shut down by {@link #close()}. The configurer registers what that node
	 * serves.
	 */
	public WorkflowEngine newWorkerEngine(Consumer<WorkflowEngine.Builder> configurer) {
		start();
		WorkflowEngine.Builder builder = baseBuilder();
		configurer.accept(builder);
		WorkflowEngine other = builder.build();
		this.engines.add(other);
		return other.start();
	}

	/** The engine, started on first use. */
	public WorkflowEngine engine() {
		start();
		return this.engine;
	}

	/** The client of the engine, started on first use. */
	public WorkflowClient client() {
		return engine().client();
	}

	/**
	 * Moves time forward by the duration, through every timer on the way; see
	 * {@link TimeSkipper#sleep}.
	 */
	public void sleep(Duration duration) {
		start();
		this.skipper.sleep(duration);
	}

	/** Turns automatic time skipping on (the default) or off. */
	public void setAutoTimeSkipping(boolean enabled) {
		this.skipper.setAutoTimeSkipping(enabled);
	}

	/** The engine clock's time. */
	public Instant currentTime() {
		return this.clock.instant();
	}

	public SettableClock clock() {
		return this.clock;
	}

	/** The time skipper driving the clock. */
	public TimeSkipper timeSkipper() {
		return this.skipper;
	}

	/** The schema of this environment (dropped at close). */
	public String schema() {
		return this.schema;
	}

	/** Stops the engines and drops the schema. */
	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		this.skipper.close();
		for (WorkflowEngine started : this.engines) {
			try {
				started.shutdown();
			}
			catch (RuntimeException ex) {
				// best effort: the schema goes next
			}
		}
		if (this.engine != null) {
			new JdbcTemplate(this.dataSource).execute("DROP SCHEMA IF EXISTS " + this.schema + " CASCADE");
		}
	}

	/** Builder of {@link TestWorkflowEnvironment}. */
	public static final class Builder {

		private final List<Class<?>> workflows = new ArrayList<>();

		private final List<Object> activities = new ArrayList<>();

		private Instant startTime = Instant.now().truncatedTo(ChronoUnit.MILLIS);

		private boolean autoTimeSkipping = true;

		private @Nullable DataSource dataSource;

		private @Nullable Consumer<WorkflowEngine.Builder> customizer;

		private Builder() {
		}

		public Builder registerWorkflows(Class<?>... workflowClasses) {
			this.workflows.addAll(List.of(workflowClasses));
			return this;
		}

		public Builder registerActivities(Object... implementations) {
			this.activities.addAll(List.of(implementations));
			return this;
		}

		/** The clock's initial time (default: now). */
		public Builder startTime(Instant startTime) {
			this.startTime = Objects.requireNonNull(startTime, "startTime");
			return this;
		}

		/** Whether time jumps by itself while a result is awaited (default true). */
		public Builder autoTimeSkipping(boolean enabled) {
			this.autoTimeSkipping = enabled;
			return this;
		}

		/** Another PostgreSQL than the shared embedded one. */
		public Builder dataSource(DataSource dataSource) {
			this.dataSource = dataSource;
			return this;
		}

		/**
		 * Adjusts the engine builder (payload converter, listeners, task queues...)
		 * before it is built.
		 */
		public Builder customize(Consumer<WorkflowEngine.Builder> customizer) {
			this.customizer = customizer;
			return this;
		}

		/** The environment, not started yet. */
		public TestWorkflowEnvironment build() {
			return new TestWorkflowEnvironment(this);
		}

	}

}
