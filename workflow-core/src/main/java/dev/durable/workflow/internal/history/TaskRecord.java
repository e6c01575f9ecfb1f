package dev.durable.workflow.internal.history;

import java.time.Instant;
import java.util.List;

/**
 * One row of history: the events of one workflow task, inputs first then commands.
 *
 * @param seq the task's sequence number in its run, from 1
 * @param time the task's recorded time ({@code Workflows.now()} inside it)
 * @param events the events
 * @param sizeBytes the stored size of the row's events
 */
public record TaskRecord(int seq, Instant time, List<Event> events, int sizeBytes) {

	public List<Event> inputs() {
		return this.events.stream().filter((e) -> !e.type().isCommand()).toList();
	}

	public List<Event> commands() {
		return this.events.stream().filter((e) -> e.type().isCommand()).toList();
	}

	/**
	 * Whether the engine wrote this row outside any workflow task (terminate, timeout):
	 * no workflow code produced it.
	 */
	public boolean writtenOutsideTasks() {
		return this.events.stream().anyMatch((e) -> e.type().writtenOutsideTasks());
	}

}
