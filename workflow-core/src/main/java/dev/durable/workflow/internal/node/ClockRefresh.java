package dev.durable.workflow.internal.node;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.internal.support.Errors;

/**
 * Measures the node clock's offset to the database's again every interval, on a node that
 * has no heartbeat to do it with (a client-only engine). Such a node writes durable times
 * too: a start's time and its start delay's due time, a debounce window, an
 * asynchronously completed activity's heartbeat (which its heartbeat timeout is judged
 * by), a schedule's times, the close time of a run it terminates; the node's clock may be
 * stepped or drift after start. One light statement per interval, on one thread that
 * lives as long as the engine runs.
 */
public final class ClockRefresh {

	private static final Logger log = LoggerFactory.getLogger(ClockRefresh.class);

	private final Runnable measure;

	private final Duration interval;

	private volatile boolean running = true;

	private Thread thread;

	/**
	 * @param measure one measurement, which does not throw (a failed one keeps the last
	 * offset)
	 * @param interval how long between measurements
	 */
	public ClockRefresh(Runnable measure, Duration interval) {
		this.measure = measure;
		this.interval = interval;
	}

	public ClockRefresh start() {
		this.thread = Thread.ofPlatform().daemon().name("durable-clock").start(this::loop);
		return this;
	}

	private void loop() {
		while (this.running) {
			try {
				Thread.sleep(this.interval.toMillis());
				if (this.running) {
					this.measure.run();
				}
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (RuntimeException ex) {
				log.warn("Measuring the database's clock failed: {}", Errors.rootMessage(ex));
			}
		}
	}

	/**
	 * Stops the measurements and waits for one under way, at most {@code wait} (a
	 * statement is bounded by the statement timeout): nothing runs after the engine
	 * stopped.
	 */
	public void stop(Duration wait) {
		this.running = false;
		Thread current = this.thread;
		if (current == null) {
			return;
		}
		current.interrupt();
		try {
			current.join(wait.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (current.isAlive()) {
			log.warn("The clock measurement did not stop within {}", wait);
		}
	}

}
