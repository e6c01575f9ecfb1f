package dev.durable.workflow.client;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One build of the namespace and its drain status.
 *
 * @param buildId the build id
 * @param state where the build stands
 * @param rampingPercent the percentage of new runs it takes while it ramps, else 0
 * @param liveNodes how many of its nodes are live
 * @param openPinnedRuns open runs pinned to it: an old build drains when none is left
 * @param strandedRuns those of them waiting for a node of the build (none is live)
 * @param refusedMoves those of them a move to another build refused
 * @param firstSeenAt when a node of the build first ran, or {@code null} (only runs name
 * it)
 * @param lastTaskAt when a node of the build last committed a workflow task, or
 * {@code null}
 */
public record BuildStatus(String buildId, State state, int rampingPercent, int liveNodes, long openPinnedRuns,
		long strandedRuns, long refusedMoves, @Nullable Instant firstSeenAt, @Nullable Instant lastTaskAt) {

	/** Where a build stands. */
	public enum State {

		/** New runs and auto-upgrading runs go to it. */
		CURRENT,

		/** It takes its percentage of new runs. */
		RAMPING,

		/** Neither current nor ramping; runs are still pinned to it. */
		DRAINING,

		/** Neither current nor ramping, no open run pinned to it: its nodes can go. */
		DRAINED

	}

	/** Whether its nodes can be stopped without stranding a run. */
	public boolean drained() {
		return this.state == State.DRAINED;
	}

}
