package dev.durable.workflow.internal.batch;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import dev.durable.workflow.client.ResetPoint;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.batch.BatchOperation;
import dev.durable.workflow.client.batch.BatchRequest;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * A batch request as stored in the batch row: JSON with every search-attribute value
 * tagged with its kind, since a filter compares typed values (a time read back as a plain
 * string would match strings instead). The signal payload is kept as a JSON tree and
 * converted to each run's handler type when sent.
 *
 * @param operation the operation
 * @param filter the filter
 * @param reason the reason, or {@code null}
 * @param signalName the signal, or {@code null}
 * @param signalPayload the signal payload as JSON, or {@code null}
 * @param resetPoint the reset point, or {@code null}
 * @param pageSize runs per page
 */
record StoredRequest(BatchOperation operation, Filter filter, @Nullable String reason, @Nullable String signalName,
		@Nullable JsonNode signalPayload, @Nullable ResetPoint resetPoint, int pageSize) {

	static StoredRequest of(BatchRequest request) {
		JsonNode payload = (request.signalPayload() != null) ? InternalJson.MAPPER.valueToTree(request.signalPayload())
				: null;
		return new StoredRequest(request.operation(), Filter.of(request.filter()), request.reason(),
				request.signalName(), payload, request.resetPoint(), request.pageSize());
	}

	static StoredRequest read(byte[] json) {
		return InternalJson.read(json, StoredRequest.class);
	}

	byte[] write() {
		return InternalJson.write(this);
	}

	/** A hash of the request: equal for the same request, whatever the batch id. */
	String fingerprint() {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(write()));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	BatchRequest toRequest(String batchId) {
		Object payload = (this.signalPayload != null)
				? InternalJson.MAPPER.treeToValue(this.signalPayload, Object.class) : null;
		return new BatchRequest(batchId, this.operation, this.filter.toFilter(), this.reason, this.signalName, payload,
				this.resetPoint, this.pageSize);
	}

	/**
	 * A {@link WorkflowFilter} in stored form; statuses sorted so that equal filters
	 * store alike.
	 */
	record Filter(@Nullable String type, List<String> statuses, @Nullable Instant startedFrom,
			@Nullable Instant startedTo, @Nullable Instant closedFrom, @Nullable Instant closedTo,
			@Nullable String workflowIdPrefix, List<Condition> conditions, @Nullable Boolean paused) {

		static Filter of(WorkflowFilter filter) {
			List<Condition> conditions = new ArrayList<>();
			for (WorkflowFilter.Condition condition : filter.conditions()) {
				conditions.add(new Condition(condition.attribute(), condition.operator(),
						condition.values().stream().map((value) -> Value.of(condition.attribute(), value)).toList()));
			}
			return new Filter(filter.type(),
					new ArrayList<>(new TreeSet<>(filter.statuses().stream().map(Enum::name).toList())),
					filter.startedFrom(), filter.startedTo(), filter.closedFrom(), filter.closedTo(),
					filter.workflowIdPrefix(), conditions, filter.paused());
		}

		WorkflowFilter toFilter() {
			List<WorkflowFilter.Condition> typed = new ArrayList<>();
			for (Condition condition : (this.conditions != null) ? this.conditions : List.<Condition>of()) {
				typed.add(new WorkflowFilter.Condition(condition.attribute(), condition.operator(),
						condition.values().stream().map(Value::value).toList()));
			}
			java.util.Set<WorkflowStatus> set = new java.util.HashSet<>();
			for (String status : (this.statuses != null) ? this.statuses : List.<String>of()) {
				set.add(WorkflowStatus.valueOf(status));
			}
			return new WorkflowFilter(this.type, set, this.startedFrom, this.startedTo, this.closedFrom, this.closedTo,
					this.workflowIdPrefix, typed, this.paused);
		}

	}

	/**
	 * One search-attribute condition.
	 *
	 * @param attribute the attribute
	 * @param operator the operator
	 * @param values its values, tagged
	 */
	record Condition(String attribute, WorkflowFilter.Operator operator, List<Value> values) {
	}

	/**
	 * A search-attribute value with its kind: {@code s} string, {@code i} whole number,
	 * {@code d} decimal, {@code b} boolean, {@code t} time.
	 *
	 * @param kind the kind
	 * @param text the value as text
	 */
	record Value(String kind, String text) {

		static Value of(String attribute, Object value) {
			return switch (value) {
				case String string -> new Value("s", string);
				case Boolean bool -> new Value("b", bool.toString());
				case Long number -> new Value("i", number.toString());
				case Integer number -> new Value("i", number.toString());
				case Short number -> new Value("i", number.toString());
				case Byte number -> new Value("i", number.toString());
				case Double number -> new Value("d", number.toString());
				case Float number -> new Value("d", Double.toString(number.doubleValue()));
				case Instant time -> new Value("t", time.toString());
				case OffsetDateTime time -> new Value("t", time.toInstant().toString());
				case ZonedDateTime time -> new Value("t", time.toInstant().toString());
				default -> throw new IllegalArgumentException("Search attribute condition on '" + attribute
						+ "' has a value of type " + value.getClass().getSimpleName()
						+ "; use String, Long, Integer, Double, Boolean or Instant");
			};
		}

		Object value() {
			return switch (this.kind) {
				case "s" -> this.text;
				case "b" -> Boolean.parseBoolean(this.text);
				case "i" -> Long.parseLong(this.text);
				case "d" -> Double.parseDouble(this.text);
				case "t" -> Instant.parse(this.text);
				default -> throw new IllegalStateException("Unknown stored value kind " + this.kind);
			};
		}

	}

}
