package dev.durable.workflow;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Cancels the open runs of the annotated workflow type when an event on a topic names
 * them: those whose search attribute {@link #searchAttribute()} equals the payload's
 * {@link #field()}. Each run gets a cancel request (as {@code handle.cancel}), so its
 * code may clean up.
 *
 * <pre>{@code
 * &#64;Workflow
 *

&#64;CancelOnEvent(topic = "order-canceled", field = "orderId")   // search attribute "orderId"
 * public class FulfilmentWorkflow { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(CancelOnEvent.List.class)
public @interface CancelOnEvent {

	/** The topic. */
	String topic();

	/** The payload field (a property name or a dotted path) that names the runs. */
	String field();

	/** The search attribute the field's value must equal; empty: the field's name. */
	String searchAttribute() default "";

	/** The cancel triggers of a type that several topics cancel. */
	@Documented
	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.TYPE)
	@interface List {

		/** The triggers. */
		CancelOnEvent[] value();

	}

}
