package dev.durable.workflow.failure;

/**
 * A start without the input its workflow's run method takes, or a payload missing a field
 * that has no absent value (a primitive): the run could only fail, so nothing is started
 * or stored. A parameter or field annotated {@code @Nullable} may be absent.
 */
public class MissingInputException extends PayloadException {

	private final String field;

	/**
	 * @param message what is missing, for the caller
	 * @param field the missing value: {@code input}, or a dotted path such as
	 * {@code input.quantity}
	 */
	public MissingInputException(String message, String field) {
		super(message, false, null);
		this.field = field;
	}

	/**
	 * The missing value: {@code input}, or a dotted path such as {@code input.quantity}.
	 */
	public String field() {
		return this.field;
	}

}
