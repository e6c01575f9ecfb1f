package dev.durable.workflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.durable.workflow.failure.ChildWorkflowFailure;

/**
 * A durable semaphore for workflow code: at most {@code capacity} holders of a named
 * resource across all workflows, built on workflow-id uniqueness. Each held permit is a
 * child run with the workflow id {@code permit:{resource}:{slot}}; the database refuses a
 * second open run with that id, so acquiring is atomic. Slots are probed in
 * {@link Workflows#random()} order (deterministic, spread across callers); when all are
 * busy the caller sleeps with backoff and tries again. A permit ends on
 * {@link Permit#release()} (a signal pinned to the permit's run), when its lease runs
 * out, or when the holder's run closes (parent close policy TERMINATE). The permit's run
 * id is a fencing token for the resource: pass it to activities so a holder whose lease
 * expired is refused there. The permit run also has an execution timeout a little past
 * the lease: should its own timer never fire (its workflow tasks keep failing, say), the
 * engine still closes it and the slot frees. Register {@link PermitWorkflow} on the nodes
 * (the engine does it by itself).
 */
public final class WorkflowSemaphore {

	/**
	 * How long past its lease a permit run may live before the engine closes it
	 * regardless.
	 */
	static final Duration BACKSTOP_MARGIN = Duration.ofMinutes(1);

	private final String resource;

	private final int capacity;

	private final Duration initialBackoff;

	private final Duration maxBackoff;

	public WorkflowSemaphore(String resource, int capacity) {
		this(resource, capacity, Duration.ofSeconds(5), Duration.ofMinutes(1));
	}

	public WorkflowSemaphore(String resource, int capacity, Duration initialBackoff, Duration maxBackoff) {
		if (capacity < 1) {
			throw new IllegalArgumentException("capacity must be at least 1");
		}
		this.resource = resource;
		this.capacity = capacity;
		this.initialBackoff = initialBackoff;
		this.maxBackoff = maxBackoff;
	}

	/** The workflow id of a permit: {@code permit:{resource}:{slot}}. */
	public static String permitWorkflowId(String resource, String slot) {
		return "permit:" + resource + ":" + slot;
	}

	/** Waits durably for a free slot and holds it for at most the lease. */
	public Permit acquire(Duration lease) {
		List<Integer> slots = new ArrayList<>();
		for (int i = 0; i < this.capacity; i++) {
			slots.add(i);
		}
		Duration backoff = this.initialBackoff;
		while (true) {
			Collections.shuffle(slots, Workflows.random());
			for (int slot : slots) {
				String workflowId = permitWorkflowId(this.resource, String.valueOf(slot));
				ChildHandle<String> permit = Workflows.startChild(PermitWorkflow::run,
						new PermitWorkflow.PermitInput(this.resource, String.valueOf(slot), lease),
						ChildOptions.withId(workflowId).withExecutionTimeout(lease.plus(BACKSTOP_MARGIN)));
				try {
					return new Permit(String.valueOf(slot), workflowId, permit.started().get());
				}
				catch (ChildWorkflowFailure busy) {
					// the slot is held by another run: try the next one
				}
			}
			Workflows.sleep(backoff);
			backoff = backoff.multipliedBy(2);
			if (backoff.compareTo(this.maxBackoff) > 0) {
				backoff = this.maxBackoff;
			}
		}
	}

	/**
	 * A held slot.
	 *
	 * @param slot the slot name ("0" to capacity - 1)
	 * @param workflowId the permit's workflow id
	 * @param runId the permit's run id: a fencing token for the resource
	 */
	public record Permit(String slot, String workflowId, String runId) implements AutoCloseable {

		/**
		 * Frees the slot; the signal is pinned to this permit's run, never to a later
		 * holder's.
		 */
		public void release() {
			Workflows.signalExternal(this.workflowId, this.runId, "release", null).get();
		}

		@Override
		public void close() {
			release();
		}

	}

	/** One held permit: waits for its release signal or for its lease to run out. */
	@Workflow("durable-permit")
	public static class PermitWorkflow {

		private boolean released;

		/**
		 * What a permit holds.
		 *
		 * @param resource the resource name
		 * @param slot the slot
		 * @param lease how long at most
		 */
		public record PermitInput(String resource, String slot, Duration lease) {
		}

		@WorkflowRun
		public String run(PermitInput input) {
			boolean released = Workflows.await(input.lease(), () -> this.released);
			if (!released) {
				Workflows.logger(PermitWorkflow.class)
					.warn("Permit {} of {} lease expired without a release", input.slot(), input.resource());
			}
			return released ? "released" : "lease_expired";
		}

		@SignalMethod
		public void release() {
			this.released = true;
		}

	}

}
