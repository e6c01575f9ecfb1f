package dev.durable.workflow.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * The build a run belongs to, as its row stores it ({@code build_id}, {@code pinned},
 * {@code ramp_bucket}).
 *
 * @param buildId the build that starts it (a pinned run's only build), or {@code null}
 * for an unversioned run, which any node may take
 * @param pinned whether its workflow tasks run only on nodes of {@code buildId}
 * @param rampBucket 0 to 99, fixed per workflow id: an auto-upgrading run goes to the
 * ramping build while its bucket is under the ramping percentage
 */
public record BuildAssignment(@Nullable String buildId, boolean pinned, int rampBucket) {

	/** A run any node may take. */
	public static final BuildAssignment UNVERSIONED = new BuildAssignment(null, false, 0);

	/** The bucket of a workflow id: the same on every node and in every release. */
	public static int bucket(String workflowId) {
		// String.hashCode is specified by the language, so stable across JVMs
		return Math.floorMod(workflowId.hashCode(), 100);
	}

}
