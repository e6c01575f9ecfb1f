package dev.durable.workflow.internal.store;

/**
 * How a wait's match meets an event's payload, in SQL. A match is a JSON object of field
 * paths and values; an event's payload projected on a wait's fields (each path read with
 * {@code #>}) is the object the match must equal, so the waits of one shape are found by
 * equality on an index.
 */
public final class TopicMatch {

	/** The notification text that asks the nodes to dispatch published events. */
	public static final String NOTIFICATION = "E";

	private TopicMatch() {
	}

	/**
	 * The SQL expression of a payload projected on fields: a JSON object of each field
	 * path and the payload's value there ({@code '{}'} for no fields).
	 * @param payload a jsonb expression
	 * @param fields a text[] expression
	 */
	public static String projection(String payload, String fields) {
		return "coalesce((SELECT jsonb_object_agg(f, " + payload + " #> string_to_array(f, '.')) FROM unnest(" + fields
				+ ") f), '{}'::jsonb)";
	}

	/** The channel the nodes listen on for the schema. */
	public static String channel(String schema) {
		return "durable_" + schema;
	}

}
