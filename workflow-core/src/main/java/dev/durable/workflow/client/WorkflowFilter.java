package dev.durable.workflow.client;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Which runs {@link WorkflowClient#list} and {@link WorkflowClient#count} return.
 * Immutable: each method returns a new filter with one more condition, and all conditions
 * must hold. <pre>{@code
 * WorkflowFilter filter = WorkflowFilter.all()
 *     .type("order")
 *     .status(WorkflowStatus.RUNNING)
 *     .startedBetween(from, to)
 *     .eq("customerId", "c-42")
 *     .ge("amount", 100);
 * }</pre> Search attribute conditions compare typed values: a number matches numbers
 * only, a string strings only, a time ({@link Instant}, {@link java.time.OffsetDateTime})
 * times only. Equality on a list attribute (a keyword list) matches when the list
 * contains the value. Attribute names and values are always sent to the database as bound
 * parameters.
 *
 * @param type the workflow type, or {@code null} for any
 * @param statuses the statuses, empty for any (also when {@code null} is given)
 * @param startedFrom runs started at or after this time, or {@code null}
 * @param startedTo runs started before this time, or {@code null}
 * @param closedFrom runs closed at or after this time, or {@code null}
 * @param closedTo runs closed before this time, or {@code null}
 * @param workflowIdPrefix runs whose workflow id starts with this, or {@code null}
 * @param conditions search attribute conditions; none when {@code null} is given
 * @param paused {@code true} for the runs an operator paused (open runs only),
 * {@code false} for the others, {@code null} for any
 */
public record WorkflowFilter(@Nullable String type, Set<WorkflowStatus> statuses, @Nullable Instant startedFrom,
		@Nullable Instant startedTo, @Nullable Instant closedFrom, @Nullable Instant closedTo,
		@Nullable String workflowIdPrefix, List<Condition> conditions, @Nullable Boolean paused) {

	private static final WorkflowFilter ALL = new WorkflowFilter(null, Set.of(), null, null, null, null, null,
			List.of(), null);

	/** The canonical constructor; {@code null} statuses or conditions are empty. */
	public WorkflowFilter(@Nullable String type, @Nullable Set<WorkflowStatus> statuses, @Nullable Instant startedFrom,
			@Nullable Instant startedTo, @Nullable Instant closedFrom, @Nullable Instant closedTo,
			@Nullable String workflowIdPrefix, @Nullable List<Condition> conditions, @Nullable Boolean paused) {
		this.type = type;
		this.statuses = (statuses != null) ? Set.copyOf(statuses) : Set.of();
		this.startedFrom = startedFrom;
		this.startedTo = startedTo;
		this.closedFrom = closedFrom;
		this.closedTo = closedTo;
		this.workflowIdPrefix = workflowIdPrefix;
		this.conditions = (conditions != null) ? List.copyOf(conditions) : List.of();
		this.paused = paused;
	}

	/**
	 * Paused runs only ({@code true}: open runs an operator paused) or unpaused ones only
	 * ({@code false}).
	 */
	public WorkflowFilter paused(boolean isPaused) {
		return new WorkflowFilter(this.type, this.statuses, this.startedFrom, this.startedTo, this.closedFrom,
				this.closedTo, this.workflowIdPrefix, this.conditions, isPaused);
	}

	/** Every run. */
	public static WorkflowFilter all() {
		return ALL;
	}

	/** Runs of one workflow type. */
	public static WorkflowFilter ofType(String workflowType) {
		return ALL.type(workflowType);
	}

	/** Only runs of this workflow type. */
	public WorkflowFilter type(String workflowType) {
		return new WorkflowFilter(Objects.requireNonNull(workflowType, "workflowType"), this.statuses, this.startedFrom,
				this.startedTo, this.closedFrom, this.closedTo, this.workflowIdPrefix, this.conditions, this.paused);
	}

	/** Only runs in one of these statuses. */
	public WorkflowFilter status(WorkflowStatus first, WorkflowStatus... more) {
		Set<WorkflowStatus> all = EnumSet.of(first, more);
		return new WorkflowFilter(this.type, all, this.startedFrom, this.startedTo, this.closedFrom, this.closedTo,
				this.workflowIdPrefix, this.conditions, this.paused);
	}

	/** Only runs started in {@code [from, to)}; either bound may be {@code null}. */
	public WorkflowFilter startedBetween(@Nullable Instant from, @Nullable Instant to) {
		return new WorkflowFilter(this.type, this.statuses, from, to, this.closedFrom, this.closedTo,
				this.workflowIdPrefix, this.conditions, this.paused);
	}

	/**
	 * Only runs closed in {@code [from, to)}; either bound may be {@code null}. Open runs
	 * never match.
	 */
	public WorkflowFilter closedBetween(@Nullable Instant from, @Nullable Instant to) {
		return new WorkflowFilter(this.type, this.statuses, this.startedFrom, this.startedTo, from, to,
				this.workflowIdPrefix, this.conditions, this.paused);
	}

	/** Only runs whose workflow id starts with this prefix. */
	public WorkflowFilter workflowIdPrefix(String prefix) {
		return new WorkflowFilter(this.type, this.statuses, this.startedFrom, this.startedTo, this.closedFrom,
				this.closedTo, Objects.requireNonNull(prefix, "prefix"), this.conditions, this.paused);
	}

	/** The search attribute equals the value (or, for a list attribute, contains it). */
	public WorkflowFilter eq(String attribute, Object value) {
		return where(new Condition(attribute, Operator.EQ, List.of(checkValue(attribute, value))));
	}

	/** The search attribute equals one of the values. */
	public WorkflowFilter in(String attribute, Collection<?> values) {
		List<Object> checked = new ArrayList<>();
		for (Object value : Objects.requireNonNull(values, "values")) {
			checked.add(checkValue(attribute, value));
		}
		return where(new Condition(attribute, Operator.IN, checked));
	}

	/** The search attribute is greater than the value (same type only). */
	public WorkflowFilter gt(String attribute, Object value) {
		return where(new Condition(attribute, Operator.GT, List.of(checkValue(attribute, value))));
	}

	/** The search attribute is greater than or equal to the value (same type only). */
	public WorkflowFilter ge(String attribute, Object value) {
		return where(new Condition(attribute, Operator.GE, List.of(checkValue(attribute, value))));
	}

	/** The search attribute is less than the value (same type only). */
	public WorkflowFilter lt(String attribute, Object value) {
		return where(new Condition(attribute, Operator.LT, List.of(checkValue(attribute, value))));
	}

	/** The search attribute is less than or equal to the value (same type only). */
	public WorkflowFilter le(String attribute, Object value) {
		return where(new Condition(attribute, Operator.LE, List.of(checkValue(attribute, value))));
	}

	private WorkflowFilter where(Condition condition) {
		List<Condition> all = new ArrayList<>(this.conditions);
		all.add(condition);
		return new WorkflowFilter(this.type, this.statuses, this.startedFrom, this.startedTo, this.closedFrom,
				this.closedTo, this.workflowIdPrefix, all, this.paused);
	}

	private static Object checkValue(String attribute, @Nullable Object value) {
		if (value == null) {
			throw new IllegalArgumentException(
					"Search attribute condition on '" + attribute + "' needs a value, not null");
		}
		return value;
	}

	/** How a condition compares. */
	public enum Operator {

		EQ, IN, GT, GE, LT, LE

	}

	/**
	 * One search attribute condition.
	 *
	 * @param attribute the search attribute key
	 * @param operator how it compares
	 * @param values the value (one, or several for IN)
	 */
	public record Condition(String attribute, Operator operator, List<Object> values) {

		public Condition {
			Objects.requireNonNull(operator, "operator");
			values = List.copyOf(values);
			if (operator != Operator.IN && values.size() != 1) {
				throw new IllegalArgumentException(operator + " on '" + attribute + "' takes one value: " + values);
			}
		}

	}

}
