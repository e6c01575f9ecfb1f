package dev.durable.benchmarks;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/**
 * Waits for signals in a loop until told to stop; returns how many pings it received.
 * <p>
 * The {@code ping} handler reports to {@link HandlerProbe} when it ran. That is a
 * wall-clock side channel out of workflow code: non-deterministic, allowed here only
 * because it measures and changes nothing the workflow records. Real workflows must never
 * do this.
 */
@Workflow("signal-sink")
public class SignalSinkWorkflow {

	private long received;

	private boolean stopped;

	@WorkflowRun
	public long run() {
		while (!this.stopped) {
			long seen = this.received;
			Workflows.await(() -> this.received > seen || this.stopped);
		}
		return this.received;
	}

	@SignalMethod
	public void ping(Ping ping) {
		this.received++;
		HandlerProbe.handled(ping.seq(), Workflows.isReplaying());
	}

	@SignalMethod
	public void stop() {
		this.stopped = true;
	}

	/**
	 * The payload of a ping.
	 *
	 * @param seq the benchmark's sequence number of the signal
	 */
	public record Ping(int seq) {
	}

}
