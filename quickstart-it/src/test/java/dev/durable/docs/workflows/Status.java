package dev.durable.docs.workflows;

/** What the guide's {@link AgentRun} answers to a query. */
public record Status(String goal, boolean paused) {
}
