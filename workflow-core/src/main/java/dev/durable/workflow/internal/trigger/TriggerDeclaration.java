package dev.durable.workflow.internal.trigger;

import java.lang.reflect.Type;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.CancelOnEvent;
import dev.durable.workflow.StartOnEvent;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.support.TopicNames;

/**
 * One trigger a workflow type declares, read from its annotations and checked.
 *
 * @param workflowType the type
 * @param topic the topic
 * @param kind START, BATCH or CANCEL (the stored kind)
 * @param field START: the payload field of the workflow id ({@code null}: from the event
 * id); CANCEL: the payload field that names the runs
 * @param searchAttribute CANCEL: the search attribute the field must equal
 * @param batchSize BATCH: the most events of a run
 * @param batchWindow BATCH: how long a batch waits for more events
 * @param inputType the run method's input type ({@code null}: none)
 */
record TriggerDeclaration(String workflowType, String topic, String kind, @Nullable String field,
		@Nullable String searchAttribute, int batchSize, @Nullable Duration batchWindow, @Nullable Type inputType) {

	static final String START = "START";

	static final String BATCH = "BATCH";

	static final String CANCEL = "CANCEL";

	/**
	 * The triggers a type's annotations declare.
	 * @throws IllegalStateException for a declaration that cannot work
	 */
	static List<TriggerDeclaration> of(WorkflowDefinition definition) {
		List<TriggerDeclaration> triggers = new ArrayList<>();
		Class<?> type = definition.workflowClass();
		for (StartOnEvent start : type.getAnnotationsByType(StartOnEvent.class)) {
			String where = "@StartOnEvent(topic = \"" + start.topic() + "\") of " + type.getName();
			checkTopic(start.topic(), where);
			String idField = start.workflowIdField().isEmpty() ? null : checkField(start.workflowIdField(), where);
			if (start.batchSize() > 1 || !start.batchWindow().isEmpty()) {
				if (start.batchSize() < 2) {
					throw new IllegalStateException(where + ": a batch needs batchSize of 2 or more");
				}
				if (idField != null) {
					throw new IllegalStateException(where + ": a batch's workflow id comes from its first event;"
							+ " workflowIdField does not apply");
				}
				triggers.add(new TriggerDeclaration(definition.typeName(), start.topic(), BATCH, null, null,
						start.batchSize(), window(start.batchWindow(), where), definition.inputType()));
			}
			else {
				triggers.add(new TriggerDeclaration(definition.typeName(), start.topic(), START, idField, null, 0, null,
						definition.inputType()));
			}
		}
		for (CancelOnEvent cancel : type.getAnnotationsByType(CancelOnEvent.class)) {
			String where = "@CancelOnEvent(topic = \"" + cancel.topic() + "\") of " + type.getName();
			checkTopic(cancel.topic(), where);
			String field = checkField(cancel.field(), where);
			String attribute = cancel.searchAttribute().isEmpty() ? field : cancel.searchAttribute();
			triggers.add(new TriggerDeclaration(definition.typeName(), cancel.topic(), CANCEL, field, attribute, 0,
					null, definition.inputType()));
		}
		long distinct = triggers.stream().map((t) -> t.topic() + "\u0000" + t.kind()).distinct().count();
		if (distinct < triggers.size()) {
			throw new IllegalStateException(type.getName() + " declares two triggers of one kind on one topic");
		}
		return triggers;
	}

	private static void checkTopic(String topic, String where) {
		if (!TopicNames.isTopic(topic)) {
			throw new IllegalStateException(where + ": a topic is 1 to 200 characters and not blank");
		}
	}

	private static String checkField(String field, String where) {
		if (!TopicNames.isField(field)) {
			throw new IllegalStateException(
					where + ": '" + field + "' is not a payload field (a property name or a dotted path of them)");
		}
		return field;
	}

	private static Duration window(String text, String where) {
		if (text.isEmpty()) {
			throw new IllegalStateException(where + ": a batch needs batchWindow (ISO-8601, \"PT10S\")");
		}
		try {
			Duration window = Duration.parse(text);
			if (window.isNegative() || window.isZero()) {
				throw new IllegalStateException(where + ": batchWindow must be positive: " + text);
			}
			return window;
		}
		catch (DateTimeParseException ex) {
			throw new IllegalStateException(where + ": batchWindow is not an ISO-8601 duration: " + text, ex);
		}
	}

	/** The field as the path {@code #>} reads. */
	String[] path() {
		return (this.field != null) ? this.field.split("\\.") : new String[0];
	}

}
