package dev.durable.workflow.client;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The builds of the namespace, for operators: which build new runs go to, the drain
 * status of each build, and moving pinned runs between builds. Obtained from
 * {@link WorkflowClient#builds()}.
 */
public interface WorkerBuilds {

	/**
	 * Every build a node of the namespace ran or an open run is pinned to, newest first.
	 */
	List<BuildStatus> list();

	/** Where new runs go now. */
	BuildRouting routing();

	/**
	 * Makes a build current: new runs (but the ramping ones) and the next tasks of
	 * auto-upgrading runs go to it. {@code null} goes back to the default, the newest
	 * build with a live node. Every node follows within a poll interval.
	 */
	void setCurrent(@Nullable String buildId);

	/**
	 * Ramps a build: it takes the given percentage of new runs (chosen by workflow id, so
	 * the same ids every time), the current build the rest. {@code null} stops ramping.
	 * @throws IllegalArgumentException when the percentage is not between 0 and 100
	 */
	void setRamping(@Nullable String buildId, int percent);

	/**
	 * Moves the open runs pinned to {@code fromBuild} (of one workflow type, or of every
	 * type when {@code workflowType} is {@code null}) to this node's build,
	 * {@code toBuild}. Each run's history is replayed on this node's code first; a run
	 * that does not replay stays, and the report names its first mismatch (a run refused
	 * once is tried again by the next move). Moves up to {@code limit} runs per call:
	 * call again until the report is empty.
	 * @throws IllegalArgumentException when {@code toBuild} is not this node's build (its
	 * code is the one the histories must replay on), equals {@code fromBuild}, or the
	 * limit is not positive
	 */
	BuildMoveReport moveRuns(String fromBuild, String toBuild, @Nullable String workflowType, int limit);

}
