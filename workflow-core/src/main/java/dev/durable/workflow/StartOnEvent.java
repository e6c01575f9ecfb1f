package dev.durable.workflow;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Starts a run of the annotated workflow type for each event published on a topic (or one
 * run per batch of events), with the event's payload as its input (for a batch: the list
 * of the payloads, in order). The nodes that register the type declare the trigger; any
 * worker node dispatches the event and a node of the type starts the run.
 * <p>
 * The workflow id is the payload's {@link #workflowIdField()} when named, else
 * {@code <type>:<topic>:<event id>} (for a batch, its first event's id); a run of that id
 * that exists already, open or closed, means the event starts nothing, so a repeated or
 * re-dispatched event never starts a second run. An event whose payload does not fit the
 * run method's input starts nothing and is logged.
 *
 * <pre>{@code
 * &#64;Workflow
 *

&#64;StartOnEvent(topic = "orders", workflowIdField = "orderId")
 * public class FulfilmentWorkflow { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(StartOnEvent.List.class)
public @interface StartOnEvent {

	/** The topic. */
	String topic();

	/**
	 * The payload field (a property name or a dotted path) whose value is the workflow
	 * id; empty: an id derived from the event's id.
	 */
	String workflowIdField() default "";

	/**
	 * More than 1: the events are collected into one run of at most this many (its input
	 * is the list of their payloads), started when the batch is full or
	 * {@link #batchWindow()} after its first event, whichever comes first.
	 */
	int batchSize() default 0;

	/**
	 * How long a batch may wait for more events (ISO-8601, {@code "PT10S"}); required
	 * with {@link #batchSize()}.
	 */
	String batchWindow() default "";

	/** The triggers of a type that starts on several topics. */
	@Documented
	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.TYPE)
	@interface List {

		/** The triggers. */
		StartOnEvent[] value();

	}

}
