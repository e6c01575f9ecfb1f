package dev.durable.workflow.internal.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;

import org.jspecify.annotations.Nullable;

/**
 * Which runs a node may take, by build: the values its claims bind into
 * {@link #routed(String)}.
 *
 * @param buildId the node's build, or {@code null} for an unversioned node (it takes
 * unversioned runs only)
 * @param currentHere whether the node's build is the namespace's current build
 * @param rampingHere whether it is the ramping build
 * @param rampingPercent the ramping percentage (0 without a ramping build)
 */
public record BuildRoute(@Nullable String buildId, boolean currentHere, boolean rampingHere, int rampingPercent) {

	/** A node without a build id. */
	public static final BuildRoute UNVERSIONED = new BuildRoute(null, false, false, 0);

	/**
	 * The condition that the run under the alias goes to this node's build: an
	 * unversioned run to any node, a pinned run to its build, an auto-upgrading run to
	 * the ramping build when its bucket is under the percentage, else to the current
	 * build. Five parameters, bound by {@link #bind}.
	 */
	public static String routed(String alias) {
		String r = alias + ".";
		return "(" + r + "build_id IS NULL OR (" + r + "pinned AND " + r + "build_id = ?) OR (NOT " + r
				+ "pinned AND ((?::boolean AND " + r + "ramp_bucket < ?::int) OR (?::boolean AND " + r
				+ "ramp_bucket >= ?::int))))";
	}

	/**
	 * The condition that the live owner of the run under the alias is of another build
	 * than this node's, for a versioned run routed here: such a run is taken over (an
	 * auto-upgrading run whose current build changed). One parameter.
	 */
	public static String ownedByOtherBuild(String alias) {
		return "(" + alias + ".build_id IS NOT NULL AND EXISTS (SELECT 1 FROM #.node ob WHERE ob.node_id = " + alias
				+ ".owner_node AND ob.build_id IS DISTINCT FROM ?))";
	}

	/** Binds {@link #routed}'s parameters from the given index; returns the next. */
	public int bind(PreparedStatement ps, int from) throws SQLException {
		int i = from;
		ps.setString(i++, this.buildId);
		ps.setBoolean(i++, this.rampingHere);
		ps.setInt(i++, this.rampingPercent);
		ps.setBoolean(i++, this.currentHere);
		ps.setInt(i++, this.rampingPercent);
		return i;
	}

	/** {@link #routed}'s parameters, in order. */
	public Object[] parameters() {
		return new Object[] { this.buildId, this.rampingHere, this.rampingPercent, this.currentHere,
				this.rampingPercent };
	}

}
