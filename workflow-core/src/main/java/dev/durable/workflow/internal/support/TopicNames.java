package dev.durable.workflow.internal.support;

import dev.durable.workflow.EventMatch;

/**
 * What a topic name and a payload field path of an event match may be, checked the same
 * way wherever one is given (a publish, a wait, a trigger's declaration).
 */
public final class TopicNames {

	/** The longest topic name. */
	public static final int MAX_LENGTH = 200;

	private TopicNames() {
	}

	/** Whether the topic is 1 to 200 characters, not blank and without NUL. */
	public static boolean isTopic(String topic) {
		return topic != null && !topic.isBlank() && topic.length() <= MAX_LENGTH && topic.indexOf(0) < 0;
	}

	/**
	 * The topic, checked.
	 * @throws IllegalArgumentException unless {@link #isTopic}
	 */
	public static String checkTopic(String topic) {
		if (!isTopic(topic)) {
			throw new IllegalArgumentException(
					"A topic is 1 to " + MAX_LENGTH + " characters, not blank and without NUL, not '" + topic + "'");
		}
		return topic;
	}

	/**
	 * Whether the text is a payload field: a property name or a dotted path of them, as
	 * {@link EventMatch#field} takes it (the one place that says so).
	 */
	public static boolean isField(String field) {
		try {
			EventMatch.field(field, "");
			return true;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

}
