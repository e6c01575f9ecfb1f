package dev.durable.workflow.internal.versioning;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.client.BuildMoveReport;
import dev.durable.workflow.client.BuildMoveReport.MovedRun;
import dev.durable.workflow.client.BuildMoveReport.RefusedRun;
import dev.durable.workflow.internal.replay.ReplayFailures;
import dev.durable.workflow.internal.store.BuildRepository;
import dev.durable.workflow.internal.store.BuildRepository.PinnedRun;

/**
 * Moves pinned runs to this node's build, each only after its history replayed on this
 * node's code: a run that would not replay stays on its build, the refusal recorded on
 * its row (describe and the drain status show it).
 */
public final class MoveRuns {

	private static final Logger log = LoggerFactory.getLogger(MoveRuns.class);

	private final BuildRouter routing;

	private final BuildRepository builds;

	private final Consumer<UUID> replay;

	/**
	 * @param replay replays a stored run on this node's code, throwing when it does not
	 * replay
	 */
	public MoveRuns(BuildRouter routing, BuildRepository builds, Consumer<UUID> replay) {
		this.routing = routing;
		this.builds = builds;
		this.replay = replay;
	}

	/**
	 * Moves the given pinned runs from their build to this node's.
	 * @throws IllegalArgumentException when the target is not this node's build
	 */
	public BuildMoveReport move(List<PinnedRun> runs, String toBuild) {
		check(toBuild);
		List<MovedRun> moved = new ArrayList<>();
		List<RefusedRun> refused = new ArrayList<>();
		for (PinnedRun run : runs) {
			if (toBuild.equals(run.buildId())) {
				continue;
			}
			String reason = replayFailure(run);
			if (reason != null) {
				this.builds.refuseMove(run.runId(), "does not replay on build '" + toBuild + "': " + reason);
				refused.add(new RefusedRun(run.workflowId(), run.runId(), run.buildId(), reason));
				log.info("Run {} of workflow {} stays on build '{}': its history does not replay on build '{}': {}",
						run.runId(), run.workflowId(), run.buildId(), toBuild, reason);
			}
			else if (this.builds.move(run.runId(), run.buildId(), toBuild)) {
				moved.add(new MovedRun(run.workflowId(), run.runId(), run.buildId()));
				log.info("Run {} of workflow {} moved from build '{}' to build '{}'", run.runId(), run.workflowId(),
						run.buildId(), toBuild);
			}
		}
		return new BuildMoveReport(toBuild, moved, refused);
	}

	/**
	 * Refuses a target that is not this node's build: the histories must replay on the
	 * target's code, which is this node's only.
	 */
	public void check(String toBuild) {
		String here = this.routing.buildId();
		if (here == null || !here.equals(toBuild)) {
			throw new IllegalArgumentException("Runs move to build '" + toBuild + "' only through a node of that"
					+ " build, whose code their histories replay on: this node's build is "
					+ ((here != null) ? "'" + here + "'" : "not set"));
		}
	}

	private @Nullable String replayFailure(PinnedRun run) {
		try {
			this.replay.accept(run.runId());
			return null;
		}
		catch (RuntimeException ex) {
			return ReplayFailures.describe(ex, run.workflowType(), run.workflowId(), run.runId()).message();
		}
	}

}
