package dev.durable.workflow.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;

import dev.durable.workflow.engine.WorkflowEngine;

/**
 * Starts the {@link WorkflowEngine} once every bean of the context is created (migrating
 * its schema, registering the node and starting to serve runs) and stops it when the
 * context closes.
 * <p>
 * Its phase is below the web server's, so the engine serves before the first request
 * arrives and stops only after graceful shutdown has drained the requests in flight. The
 * node takes no new work from the moment the context begins to close, though
 * ({@link ContextClosedEvent}, before any component stops): while the web server drains,
 * it claims no runs or task-queue activities, starts no activity attempt and fires no
 * schedule, and the attempts under way already count against
 * {@code durable.workflow.worker.shutdown-timeout}. Its {@link #stop()} then waits for
 * them (up to that timeout), commits their outcomes and releases its runs.
 * <p>
 * The stop runs on the closing thread and returns within the shutdown timeout and a few
 * seconds, whatever {@code spring.lifecycle.timeout-per-shutdown-phase} says: that
 * timeout bounds the wait for asynchronous stops only, so it neither cuts the engine's
 * stop short nor adds to it. Beans are destroyed (the connection pool closed, an embedded
 * database stopped) only after it returned.
 */
public final class WorkflowEngineLifecycle
		implements SmartLifecycle, ApplicationListener<ContextClosedEvent>, ApplicationContextAware {

	/** The phase: before the web server starts, after it stops. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private final WorkflowEngine engine;

	private volatile boolean running;

	private @Nullable ApplicationContext context;

	public WorkflowEngineLifecycle(WorkflowEngine engine) {
		this.engine = engine;
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public void start() {
		this.engine.start();
		this.running = true;
	}

	/** The context begins to close: the node takes no new work from now on. */
	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		// a child context's close reaches its parent's listeners too: only this context's
		// counts
		if (this.running && event.getApplicationContext() == this.context) {
			this.engine.beginShutdown();
		}
	}

	@Override
	public void stop() {
		this.running = false;
		this.engine.shutdown();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
