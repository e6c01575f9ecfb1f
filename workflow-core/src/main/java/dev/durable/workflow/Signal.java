package dev.durable.workflow;

import java.lang.reflect.Type;
import java.util.Objects;

/**
 * A signal name a workflow takes with {@link Workflows#receive(Signal)}, with its payload
 * type. Declared as a {@code static final} field of the workflow class (or of a
 * superclass or an interface it implements), it both declares the name, so that clients
 * may send it (see {@link Workflow#receives()}), and types both ends: the client sends
 * with {@code handle.signal(APPROVAL, decision)}, the workflow takes it with
 * {@code Workflows.receive(APPROVAL)}, and payloads sent as JSON (the REST API) are
 * converted to the declared type.
 *
 * <pre>{@code
 * &#64;Workflow
 * public class ExpenseWorkflow {
 *     public static final Signal<Decision> APPROVAL = Signal.of("approval", Decision.class);
 *
 *

&#64;WorkflowRun
 *     public String run(Expense expense) {
 *         Decision decision = Workflows.receive(APPROVAL);
 *         ...
 *     }
 * }
 * }</pre>
 *
 * Immutable; two signals are equal when name and payload type are.
 *
 * @param <T> the payload type
 */
public final class Signal<T> {

	private final String name;

	private final Type payloadType;

	private Signal(String name, Type payloadType) {
		this.name = name;
		this.payloadType = payloadType;
	}

	/**
	 * A signal of this name whose payload is of this class.
	 * @throws IllegalArgumentException when the name is blank
	 */
	public static <T> Signal<T> of(String name, Class<T> payloadType) {
		return new Signal<>(checkName(name), Objects.requireNonNull(payloadType, "payloadType"));
	}

	/**
	 * A signal whose payload is of a generic type, such as {@code List<Item>} (a
	 * {@code ParameterizedType}); the caller states {@code T}.
	 * @throws IllegalArgumentException when the name is blank
	 */
	public static <T> Signal<T> of(String name, Type payloadType) {
		return new Signal<>(checkName(name), Objects.requireNonNull(payloadType, "payloadType"));
	}

	private static String checkName(String name) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("A signal name must not be blank");
		}
		return name;
	}

	/** The signal name. */
	public String name() {
		return this.name;
	}

	/** The payload type the signal is encoded and received as. */
	public Type payloadType() {
		return this.payloadType;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof Signal<?> that && this.name.equals(that.name)
				&& this.payloadType.equals(that.payloadType);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.name, this.payloadType);
	}

	@Override
	public String toString() {
		return "Signal[" + this.name + ": " + this.payloadType.getTypeName() + "]";
	}

}
