package dev.durable.workflow.web;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import dev.durable.workflow.client.ResetPoint;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.batch.BatchOperation;
import dev.durable.workflow.client.batch.BatchRequest;

/**
 * The body of {@code POST /batches} read into a {@link BatchRequest}, strictly: an
 * unknown field, operation, status or reset point, a value of the wrong JSON type, a
 * signal without a name are refused ({@link InvalidBatchException}) rather than ignored,
 * and so is a filter that matches every run unless the body says
 * {@code "confirmAll": true}: a batch is hard to undo.
 */
final class BatchRequests {

	private static final Set<String> FIELDS = Set.of("batchId", "operation", "filter", "reason", "signal", "resetTo",
			"confirmAll", "pageSize");

	private static final Set<String> FILTER_FIELDS = Set.of("type", "status", "query", "startedFrom", "startedTo",
			"workflowIdPrefix", "paused");

	private static final Set<String> SIGNAL_FIELDS = Set.of("name", "args");

	private final WebPayloads payloads;

	BatchRequests(WebPayloads payloads) {
		this.payloads = payloads;
	}

	BatchRequest read(JsonNode body) {
		if (!body.isObject()) {
			throw new InvalidBatchException("The body must be a JSON object: {\"operation\", \"filter\", \"batchId\"?,"
					+ " \"reason\"?, \"signal\"?, \"resetTo\"?, \"confirmAll\"?}");
		}
		onlyFields(body, FIELDS, "a batch");
		BatchOperation operation = constant(BatchOperation.class, string(body, "operation"), "operation");
		if (operation == null) {
			throw new InvalidBatchException(
					"A batch needs an \"operation\": one of " + Arrays.toString(BatchOperation.values()));
		}
		JsonNode filterNode = body.get("filter");
		if (filterNode != null && !filterNode.isNull() && !filterNode.isObject()) {
			throw new InvalidBatchException("\"filter\" must be an object: {\"type\"?, \"status\"?, \"query\"?,"
					+ " \"startedFrom\"?, \"startedTo\"?, \"workflowIdPrefix\"?}");
		}
		WorkflowFilter filter = (filterNode != null && filterNode.isObject()) ? filter(filterNode)
				: WorkflowFilter.all();
		if (filter.equals(WorkflowFilter.all()) && !bool(body, "confirmAll")) {
			throw new InvalidBatchException(InvalidBatchException.EMPTY_FILTER, "The filter matches every run; send"
					+ " \"confirmAll\": true to apply " + operation + " to all of them");
		}
		String reason = string(body, "reason");
		JsonNode signal = body.get("signal");
		boolean hasSignal = signal != null && !signal.isNull();
		String signalName = null;
		Object payload = null;
		if (hasSignal) {
			if (!signal.isObject()) {
				throw new InvalidBatchException("\"signal\" must be an object: {\"name\", \"args\"?}");
			}
			onlyFields(signal, SIGNAL_FIELDS, "a signal");
			signalName = string(signal, "name");
			payload = args(signal.get("args"));
		}
		ResetPoint resetTo = constant(ResetPoint.class, string(body, "resetTo"), "resetTo");
		if (operation == BatchOperation.SIGNAL && (signalName == null || signalName.isBlank())) {
			throw new InvalidBatchException("A SIGNAL batch needs \"signal\": {\"name\", \"args\"?}");
		}
		if (operation != BatchOperation.SIGNAL && hasSignal) {
			throw new InvalidBatchException("Only a SIGNAL batch takes \"signal\"");
		}
		if (operation == BatchOperation.RESET && resetTo == null) {
			throw new InvalidBatchException(
					"A RESET batch needs \"resetTo\": one of " + Arrays.toString(ResetPoint.values()));
		}
		if (operation != BatchOperation.RESET && resetTo != null) {
			throw new InvalidBatchException("Only a RESET batch takes \"resetTo\"");
		}
		int pageSize = pageSize(body.get("pageSize"));
		try {
			return new BatchRequest(string(body, "batchId"), operation, filter, reason, signalName, payload, resetTo,
					pageSize);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidBatchException(ex.getMessage());
		}
	}

	private WorkflowFilter filter(JsonNode node) {
		onlyFields(node, FILTER_FIELDS, "a filter");
		WorkflowFilter filter = WorkflowFilter.all();
		String type = string(node, "type");
		if (type != null) {
			filter = filter.type(type);
		}
		List<WorkflowStatus> statuses = statuses(node.get("status"));
		if (!statuses.isEmpty()) {
			filter = filter.status(statuses.get(0),
					statuses.subList(1, statuses.size()).toArray(WorkflowStatus[]::new));
		}
		Instant from = instant(node, "startedFrom");
		Instant to = instant(node, "startedTo");
		if (from != null || to != null) {
			filter = filter.startedBetween(from, to);
		}
		String prefix = string(node, "workflowIdPrefix");
		if (prefix != null) {
			filter = filter.workflowIdPrefix(prefix);
		}
		JsonNode paused = node.get("paused");
		if (paused != null && !paused.isNull()) {
			filter = filter.paused(bool(node, "paused"));
		}
		try {
			return SearchQuery.apply(string(node, "query"), filter);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidBatchException(ex.getMessage());
		}
	}

	/** A status or a list of them. */
	private static List<WorkflowStatus> statuses(@Nullable JsonNode node) {
		List<WorkflowStatus> statuses = new ArrayList<>();
		if (node == null || node.isNull()) {
			return statuses;
		}
		List<JsonNode> values = new ArrayList<>();
		if (node.isArray()) {
			node.forEach(values::add);
		}
		else {
			values.add(node);
		}
		for (JsonNode value : values) {
			if (!value.isString()) {
				throw new InvalidBatchException("\"filter.status\" must be a list of status names: "
						+ Arrays.toString(WorkflowStatus.values()));
			}
			statuses.add(constant(WorkflowStatus.class, value.asString(), "filter.status"));
		}
		return statuses;
	}

	/**
	 * The signal's payload: {@code args} holds none or one value (a signal takes one
	 * parameter at most).
	 */
	private @Nullable Object args(@Nullable JsonNode args) {
		if (args == null || args.isNull()) {
			return null;
		}
		if (!args.isArray() || args.size() > 1) {
			throw new InvalidBatchException("\"signal.args\" must be a list of at most one value: a signal takes one"
					+ " parameter at most (use an object for several values)");
		}
		if (args.isEmpty()) {
			return null;
		}
		return this.payloads.convert(args.get(0), Object.class, "signal.args");
	}

	private static int pageSize(@Nullable JsonNode node) {
		if (node == null || node.isNull()) {
			return BatchRequest.DEFAULT_PAGE_SIZE;
		}
		if (!node.isIntegralNumber() || !node.canConvertToInt()) {
			throw new InvalidBatchException("\"pageSize\" must be a whole number from 1 to 1000");
		}
		return node.asInt();
	}

	private static <E extends Enum<E>> @Nullable E constant(Class<E> type, @Nullable String name, String field) {
		if (name == null) {
			return null;
		}
		try {
			return Enum.valueOf(type, name.strip().toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidBatchException("\"" + field + "\" must be one of "
					+ Arrays.toString(type.getEnumConstants()) + ", not '" + name + "'");
		}
	}

	private static @Nullable Instant instant(JsonNode node, String field) {
		String text = string(node, field);
		if (text == null) {
			return null;
		}
		try {
			return Instant.parse(text);
		}
		catch (DateTimeParseException ex) {
			throw new InvalidBatchException("\"filter." + field + "\" must be an ISO-8601 instant such as"
					+ " 2026-12-01T00:00:00Z, not '" + text + "'");
		}
	}

	private static boolean bool(JsonNode node, String field) {
		JsonNode value = node.get(field);
		if (value == null || value.isNull()) {
			return false;
		}
		if (!value.isBoolean()) {
			throw new InvalidBatchException("\"" + field + "\" must be true or false");
		}
		return value.asBoolean();
	}

	private static @Nullable String string(JsonNode node, String field) {
		JsonNode value = node.get(field);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.isString()) {
			throw new InvalidBatchException("\"" + field + "\" must be a JSON string");
		}
		return value.asString();
	}

	private static void onlyFields(JsonNode object, Set<String> fields, String what) {
		for (String field : object.propertyNames()) {
			if (!fields.contains(field)) {
				throw new InvalidBatchException(
						"Unknown field \"" + field + "\" in " + what + "; the fields are " + new TreeSet<>(fields));
			}
		}
	}

}
