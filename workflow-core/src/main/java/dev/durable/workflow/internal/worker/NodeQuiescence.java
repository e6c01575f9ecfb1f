package dev.durable.workflow.internal.worker;

import java.time.Instant;
import java.util.function.BooleanSupplier;

import dev.durable.workflow.internal.store.WakeTimes;
import dev.durable.workflow.testsupport.EngineQuiescence;

/**
 * The test kit's view of one node: its memory through the node, the database through
 * {@link WakeTimes}.
 */
public final class NodeQuiescence implements EngineQuiescence {

	private final BooleanSupplier idle;

	private final BooleanSupplier activitiesInFlight;

	private final ResultWaiters waiters;

	private final WakeTimes wakeTimes;

	private final String namespace;

	public NodeQuiescence(BooleanSupplier idle, BooleanSupplier activitiesInFlight, ResultWaiters waiters,
			WakeTimes wakeTimes, String namespace) {
		this.idle = idle;
		this.activitiesInFlight = activitiesInFlight;
		this.waiters = waiters;
		this.wakeTimes = wakeTimes;
		this.namespace = namespace;
	}

	@Override
	public boolean isIdle() {
		return this.idle.getAsBoolean();
	}

	@Override
	public boolean anyActivityInFlight() {
		return this.activitiesInFlight.getAsBoolean();
	}

	@Override
	public boolean anyCallerBlocked() {
		return this.waiters.anyBlocked();
	}

	@Override
	public boolean anyDue(Instant now) {
		return this.wakeTimes.anyDue(this.namespace, now);
	}

	@Override
	public Instant nextDue(Instant now) {
		return this.wakeTimes.next(this.namespace, now);
	}

}
