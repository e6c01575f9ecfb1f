package dev.durable.workflow.internal.runtime;

import java.util.List;

import dev.durable.workflow.internal.history.Event;

/**
 * What one new workflow task produced.
 *
 * @param inputs the inputs it accepted, in the order applied (stale ones are dropped)
 * @param commands the commands the code issued
 */
public record TaskResult(List<Event> inputs, List<Event> commands) {

	public List<Event> events() {
		List<Event> all = new java.util.ArrayList<>(this.inputs);
		all.addAll(this.commands);
		return all;
	}

	public Event closeEvent() {
		return this.commands.stream().filter((e) -> e.type().closesRun()).findFirst().orElse(null);
	}

}
