package dev.durable.workflow.internal.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;
import java.util.regex.Pattern;

/** SQL helpers: schema-qualified statements and column conversions. */
public final class Sql {

	private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

	private Sql() {
	}

	static String checkIdentifier(String schema) {
		if (schema == null || !IDENTIFIER.matcher(schema).matches()) {
			throw new IllegalArgumentException(
					"Invalid schema name '" + schema + "': use lower-case letters, digits and underscores");
		}
		return schema;
	}

	/**
	 * The open-run test of a statement that finds one run by its id:
	 * {@code status = 'RUNNING'} spelled so that no partial index over open runs
	 * ({@code WHERE status = 'RUNNING'}) can serve the statement, which leaves the run's
	 * primary key the planner's only index. With the plain spelling, a plan made while
	 * the statistics said few runs were open (a prepared statement's generic plan keeps
	 * it) scans the whole partial index of open runs and filters it by id: with 10,000
	 * runs waiting for a signal, every signal sent and every task commit read all of
	 * them.
	 */
	public static final String OPEN = open(null);

	/**
	 * {@link #OPEN} for the run row under an alias ({@code r}), or without one
	 * ({@code null}).
	 */
	public static String open(String alias) {
		return "(" + ((alias != null) ? alias + "." : "") + "status || '') = 'RUNNING'";
	}

	/** Replaces every {@code #.} in the statement with the schema name. */
	public static String q(String schema, String statement) {
		return statement.replace("#.", schema + ".");
	}

	public static Timestamp ts(Instant instant) {
		return (instant != null) ? Timestamp.from(instant) : null;
	}

	public static Instant instant(ResultSet rs, String column) throws SQLException {
		Timestamp timestamp = rs.getTimestamp(column);
		return (timestamp != null) ? timestamp.toInstant() : null;
	}

	public static UUID uuid(ResultSet rs, String column) throws SQLException {
		return rs.getObject(column, UUID.class);
	}

}
