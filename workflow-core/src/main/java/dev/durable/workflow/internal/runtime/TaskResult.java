package dev.durable.workflow.internal.runtime;

import java.util.List;

import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.FailureInfo;

/**
 * What one new workflow task produced.
 *
 * @param inputs the inputs it accepted, in the order applied (stale ones are dropped)
 * @param commands the commands the code issued
 * @param updates update outcomes decided in the task (rejections, acceptances,
 * completions)
 * @param unfinishedHandlers handlers still running when the task closed the run
 */
public record TaskResult(List<Event> inputs, List<Event> commands, List<UpdateOutcome> updates,
		int unfinishedHandlers) {

	/**
	 * An update's outcome, written with the task's commit.
	 *
	 * @param updateId the update id
	 * @param stage ACCEPTED, COMPLETED or REJECTED
	 * @param result encoded result
	 * @param failure failure (rejection or handler failure)
	 */
	public record UpdateOutcome(String updateId, String stage, byte[] result, FailureInfo failure) {
	}

	public List<Event> events() {
		List<Event> all = new java.util.ArrayList<>(this.inputs);
		all.addAll(this.commands);
		return all;
	}

	public Event closeEvent() {
		return this.commands.stream().filter((e) -> e.type().closesRun()).findFirst().orElse(null);
	}

}
