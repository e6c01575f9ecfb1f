package dev.durable.workflow.autoconfigure;

import org.springframework.context.SmartLifecycle;

import dev.durable.workflow.WorkflowEngine;

/**
 * Starts the {@link WorkflowEngine} once every bean of the context is created (migrating its
 * schema, registering the node and starting to serve runs) and shuts it down when the context
 * stops: the node stops claiming, waits for running activities up to the shutdown timeout and
 * releases its runs to other nodes.
 * <p>
 * Its phase is below the web server's, so the engine serves before the first request arrives
 * and stops only after graceful shutdown has drained the requests in flight.
 */
public final class WorkflowEngineLifecycle implements SmartLifecycle {

	/** The phase: before the web server starts, after it stops. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private final WorkflowEngine engine;

	private volatile boolean running;

	public WorkflowEngineLifecycle(WorkflowEngine engine) {
		this.engine = engine;
	}

	@Override
	public void start() {
		this.engine.start();
		this.running = true;
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
