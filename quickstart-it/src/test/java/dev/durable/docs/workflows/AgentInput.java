package dev.durable.docs.workflows;

/** The input of the guide's {@link AgentRun}. */
public record AgentInput(String goal) {
}
