package dev.durable.workflow.autoconfigure.greeting;

/** An ordinary bean, injected into the workflow as it is. */
public record Punctuation(String mark) {

}
