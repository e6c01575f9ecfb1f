package dev.durable.workflow.internal.versioning;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.client.BuildMoveReport;
import dev.durable.workflow.client.BuildRouting;
import dev.durable.workflow.client.BuildStatus;
import dev.durable.workflow.client.WorkerBuilds;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.internal.store.BuildRepository;
import dev.durable.workflow.internal.store.BuildRepository.PinnedRun;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.BuildRepository.StoredBuild;
import dev.durable.workflow.internal.store.BuildRepository.StoredRouting;

/** The operators' view of the namespace's builds, through this node. */
public final class WorkerBuildsImpl implements WorkerBuilds {

	private final BuildRouter routing;

	private final BuildRepository builds;

	private final MoveRuns moves;

	private final long keptMillis;

	/**
	 * @param kept how long a build stays listed after its last node (the retention of
	 * closed runs)
	 */
	public WorkerBuildsImpl(BuildRouter routing, BuildRepository builds, MoveRuns moves, Duration kept) {
		this.keptMillis = kept.toMillis();
		this.routing = routing;
		this.builds = builds;
		this.moves = moves;
	}

	@Override
	public List<BuildStatus> list() {
		StoredRouting stored = this.builds.routing(this.routing.namespace(), this.routing.deadAfterMillis());
		String current = stored.effectiveCurrent();
		return this.builds.builds(this.routing.namespace(), this.routing.deadAfterMillis(), this.keptMillis)
			.stream()
			.map((build) -> status(build, current, stored))
			.toList();
	}

	private static BuildStatus status(StoredBuild build, @Nullable String current, StoredRouting stored) {
		boolean ramping = build.buildId().equals(stored.rampingBuild());
		BuildStatus.State state;
		if (build.buildId().equals(current)) {
			state = BuildStatus.State.CURRENT;
		}
		else if (ramping) {
			state = BuildStatus.State.RAMPING;
		}
		else {
			state = (build.openPinnedRuns() > 0) ? BuildStatus.State.DRAINING : BuildStatus.State.DRAINED;
		}
		return new BuildStatus(build.buildId(), state, ramping ? stored.rampingPercent() : 0, build.liveNodes(),
				build.openPinnedRuns(), (build.liveNodes() == 0) ? build.openPinnedRuns() : 0, build.refusedMoves(),
				build.firstSeenAt(), build.lastTaskAt());
	}

	@Override
	public BuildRouting routing() {
		StoredRouting stored = this.builds.routing(this.routing.namespace(), this.routing.deadAfterMillis());
		return new BuildRouting(stored.effectiveCurrent(), stored.currentBuild() != null, stored.rampingBuild(),
				(stored.rampingBuild() != null) ? stored.rampingPercent() : 0);
	}

	@Override
	public void setCurrent(@Nullable String buildId) {
		this.builds.setCurrent(this.routing.namespace(), checkBuildId(buildId));
		this.routing.changed();
	}

	@Override
	public void setRamping(@Nullable String buildId, int percent) {
		if (percent < 0 || percent > 100) {
			throw new IllegalArgumentException("The ramping percentage must be between 0 and 100: " + percent);
		}
		this.builds.setRamping(this.routing.namespace(), checkBuildId(buildId), percent);
		this.routing.changed();
	}

	@Override
	public BuildMoveReport moveRuns(String fromBuild, String toBuild, @Nullable String workflowType, int limit) {
		checkBuildId(fromBuild);
		checkBuildId(toBuild);
		if (fromBuild.equals(toBuild)) {
			throw new IllegalArgumentException("The runs are on build '" + toBuild + "' already");
		}
		if (limit < 1) {
			throw new IllegalArgumentException("The limit must be positive: " + limit);
		}
		this.moves.check(toBuild);
		return this.moves.move(this.builds.pinnedRuns(this.routing.namespace(), fromBuild, workflowType, limit),
				toBuild);
	}

	/** Moves one run (see {@code WorkflowHandle.moveToBuild}). */
	public BuildMoveReport moveRun(RunRow row, String toBuild) {
		checkBuildId(toBuild);
		if (!row.isOpen()) {
			throw new WorkflowClosedException(
					"Run " + row.runId() + " of workflow '" + row.workflowId() + "' is closed: it does not move");
		}
		this.moves.check(toBuild);
		List<PinnedRun> run = this.builds.pinnedRun(this.routing.namespace(), row.runId());
		if (run.isEmpty()) {
			throw new IllegalStateException("Run " + row.runId() + " of workflow '" + row.workflowId()
					+ "' is not pinned to a build: it runs on the current build");
		}
		return this.moves.move(run, toBuild);
	}

	/** A build id as stored: not blank, at most 255 characters. */
	static @Nullable String checkBuildId(@Nullable String buildId) {
		if (buildId != null && (buildId.isBlank() || buildId.length() > 255)) {
			throw new IllegalArgumentException("A build id must not be blank nor longer than 255 characters");
		}
		return buildId;
	}

}
