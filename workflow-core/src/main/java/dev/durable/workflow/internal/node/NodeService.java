package dev.durable.workflow.internal.node;

/**
 * One background service of a node (a loop, a listener, a writer, a pool): the one
 * lifecycle every such service has. A node starts its services in order and stops them in
 * the reverse order (see {@link NodeServices}): first every service is told to take no
 * new work ({@link #beginStop}), then each completes its stop ({@link #awaitStopped}), so
 * that nothing of the node runs once its stop returned.
 */
public interface NodeService {

	/** Starts the service's work (its threads, its registration). */
	void start();

	/**
	 * At once and without waiting: the service takes no new work. Work under way runs on
	 * until {@link #awaitStopped}.
	 */
	default void beginStop() {
	}

	/**
	 * Completes the stop: waits for the work under way, at most until the deadline where
	 * the service's work may be given up, and ends the service's threads (each wait
	 * bounded).
	 * @param deadlineNanos the node's shutdown deadline, on {@link System#nanoTime()}
	 */
	void awaitStopped(long deadlineNanos);

	/**
	 * A service of the given steps.
	 * @param start what {@link #start} does
	 * @param beginStop what {@link #beginStop} does
	 * @param awaitStopped what {@link #awaitStopped} does
	 */
	static NodeService of(Runnable start, Runnable beginStop, Stop awaitStopped) {
		return new NodeService() {

			@Override
			public void start() {
				start.run();
			}

			@Override
			public void beginStop() {
				beginStop.run();
			}

			@Override
			public void awaitStopped(long deadlineNanos) {
				awaitStopped.awaitStopped(deadlineNanos);
			}

		};
	}

	/** The stop of a service built by {@link NodeService#of}. */
	@FunctionalInterface
	interface Stop {

		void awaitStopped(long deadlineNanos);

	}

}
