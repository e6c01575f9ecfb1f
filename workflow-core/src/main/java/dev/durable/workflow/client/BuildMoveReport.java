package dev.durable.workflow.client;

import java.util.List;
import java.util.UUID;

/**
 * What a move of pinned runs to another build did: every run either moved or was refused
 * because its history does not replay on the target build's code.
 *
 * @param toBuild the target build
 * @param moved the runs that moved
 * @param refused the runs that stayed, with their first mismatch
 */
public record BuildMoveReport(String toBuild, List<MovedRun> moved, List<RefusedRun> refused) {

	public BuildMoveReport {
		moved = List.copyOf(moved);
		refused = List.copyOf(refused);
	}

	/**
	 * A run that moved.
	 *
	 * @param workflowId workflow id
	 * @param runId run id
	 * @param fromBuild the build it was pinned to
	 */
	public record MovedRun(String workflowId, UUID runId, String fromBuild) {
	}

	/**
	 * A run that stayed on its build.
	 *
	 * @param workflowId workflow id
	 * @param runId run id
	 * @param fromBuild the build it stays pinned to
	 * @param reason why: the first mismatch of its replay on the target build
	 */
	public record RefusedRun(String workflowId, UUID runId, String fromBuild, String reason) {
	}

}
