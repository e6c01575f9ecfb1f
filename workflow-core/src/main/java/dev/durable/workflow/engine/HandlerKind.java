package dev.durable.workflow.engine;

/**
 * The kinds of message a workflow handles: {@code @SignalMethod}, {@code @QueryMethod}
 * and {@code @UpdateMethod}.
 */
public enum HandlerKind {

	SIGNAL, QUERY, UPDATE

}
