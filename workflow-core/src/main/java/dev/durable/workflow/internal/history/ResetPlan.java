package dev.durable.workflow.internal.history;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.durable.workflow.internal.history.Event.ActivityCancelRequested;
import dev.durable.workflow.internal.history.Event.ActivityCompleted;
import dev.durable.workflow.internal.history.Event.ActivityFailed;
import dev.durable.workflow.internal.history.Event.ActivityScheduled;
import dev.durable.workflow.internal.history.Event.CancelExternal;
import dev.durable.workflow.internal.history.Event.ChildClosed;
import dev.durable.workflow.internal.history.Event.ChildStartFailed;
import dev.durable.workflow.internal.history.Event.ChildStarted;
import dev.durable.workflow.internal.history.Event.ExternalDelivered;
import dev.durable.workflow.internal.history.Event.SignalExternal;
import dev.durable.workflow.internal.history.Event.SignalReceived;
import dev.durable.workflow.internal.history.Event.StartChild;
import dev.durable.workflow.internal.history.Event.TimerCanceled;
import dev.durable.workflow.internal.history.Event.TimerFired;
import dev.durable.workflow.internal.history.Event.TimerStarted;
import dev.durable.workflow.internal.history.Event.UpsertMemo;
import dev.durable.workflow.internal.history.Event.UpsertSearchAttributes;
import dev.durable.workflow.internal.history.Event.WorkflowAttributes;
import dev.durable.workflow.internal.history.Event.WorkflowStarted;
import dev.durable.workflow.internal.support.Attributes;

/**
 * What a reset keeps of a run's history and what the new run must be given again. Reset
 * to an event keeps the workflow tasks before the task that recorded it; that task and
 * every later one run again. Timers and activities pending at that boundary are
 * recreated, signals received after it are re-applied in order, and the answers to
 * commands kept (child started or closed, external signal delivered) that arrived after
 * it are handed to the new run, because those commands are not issued again.
 *
 * @param kept the task rows the new run starts with (the first carries the random seed)
 * @param timers pending timers at the boundary, by sequence number
 * @param activities pending activities at the boundary, as their schedule commands
 * @param keptChildren sequence numbers of the child starts kept
 * @param keptCommands sequence numbers of kept commands that get answers (children,
 * external messages)
 * @param answers answers to kept commands that arrived after the boundary, in order
 * @param signals signals received after the boundary, in order
 * @param memo the memo at the boundary (the start memo with the kept upserts applied)
 * @param searchAttributes the search attributes at the boundary
 */
public record ResetPlan(List<TaskRecord> kept, Map<Long, Instant> timers, List<ActivityScheduled> activities,
		Set<Long> keptChildren, Set<Long> keptCommands, List<Event> answers, List<SignalReceived> signals,
		Map<String, Object> memo, Map<String, Object> searchAttributes) {

	/**
	 * Plans a reset.
	 * @param history the run's task rows
	 * @param eventId the event to reset to (numbered from 1 across the rows, as the
	 * client shows them)
	 * @param seed the random seed to carry: the run id that first ran this history
	 * @return the plan
	 * @throws IllegalArgumentException when the event does not exist or was not written
	 * by a workflow task
	 */
	public static ResetPlan of(List<TaskRecord> history, long eventId, String seed) {
		int boundary = taskOf(history, eventId);
		List<TaskRecord> kept = new ArrayList<>();
		Map<Long, Instant> timers = new LinkedHashMap<>();
		Map<Long, ActivityScheduled> activities = new LinkedHashMap<>();
		Set<Long> keptCommands = new HashSet<>();
		Set<Long> keptChildren = new HashSet<>();
		Set<String> answered = new HashSet<>();
		Map<String, Object> memo = Map.of();
		Map<String, Object> searchAttributes = Map.of();
		for (int i = 0; i < history.size(); i++) {
			for (Event event : history.get(i).events()) {
				if (event instanceof WorkflowAttributes attributes) {
					Map<String, Object> both = Attributes.read(attributes.json());
					memo = map(both.get("memo"));
					searchAttributes = map(both.get("searchAttributes"));
				}
				else if (i < boundary && event instanceof UpsertMemo upsert) {
					memo = Attributes.merge(memo, Attributes.read(upsert.patch()));
				}
				else if (i < boundary && event instanceof UpsertSearchAttributes upsert) {
					searchAttributes = Attributes.merge(searchAttributes, Attributes.read(upsert.patch()));
				}
			}
		}
		for (int i = 0; i < boundary; i++) {
			TaskRecord record = history.get(i);
			kept.add((i == 0) ? withSeed(record, seed) : record);
			for (Event event : record.events()) {
				switch (event) {
					case TimerStarted started -> timers.put(started.seq(), started.fireAt());
					case TimerFired fired -> timers.remove(fired.seq());
					case TimerCanceled canceled -> timers.remove(canceled.seq());
					case ActivityScheduled scheduled -> activities.put(scheduled.seq(), scheduled);
					case ActivityCompleted completed -> activities.remove(completed.seq());
					case ActivityFailed failed -> activities.remove(failed.seq());
					case ActivityCancelRequested canceled -> activities.remove(canceled.seq());
					case StartChild start -> {
						keptCommands.add(start.seq());
						keptChildren.add(start.seq());
					}
					case SignalExternal signal -> keptCommands.add(signal.seq());
					case CancelExternal cancel -> keptCommands.add(cancel.seq());
					default -> {
						Long answeredSeq = answeredCommand(event);
						if (answeredSeq != null) {
							answered.add(answerKey(event, answeredSeq));
						}
					}
				}
			}
		}
		List<Event> answers = new ArrayList<>();
		List<SignalReceived> signals = new ArrayList<>();
		for (int i = boundary; i < history.size(); i++) {
			for (Event event : history.get(i).events()) {
				if (event instanceof SignalReceived signal) {
					signals.add(signal);
					continue;
				}
				Long answeredSeq = answeredCommand(event);
				if (answeredSeq != null && keptCommands.contains(answeredSeq)
						&& answered.add(answerKey(event, answeredSeq))) {
					answers.add(event);
				}
			}
		}
		return new ResetPlan(kept, timers, new ArrayList<>(activities.values()), keptChildren, keptCommands, answers,
				signals, memo, searchAttributes);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> map(Object value) {
		return (value instanceof Map<?, ?> map) ? (Map<String, Object>) map : Map.of();
	}

	/** The index of the task row holding the event; the rows before it are kept. */
	private static int taskOf(List<TaskRecord> history, long eventId) {
		long first = 1;
		for (int i = 0; i < history.size(); i++) {
			TaskRecord record = history.get(i);
			long last = first + record.events().size() - 1;
			if (eventId >= first && eventId <= last) {
				// in the first row, any event means "start over" (a run closed before its
				// first task)
				if (i > 0 && record.writtenOutsideTasks()) {
					throw new IllegalArgumentException("Event " + eventId + " was not written by a workflow task ("
							+ record.events().get(0).type() + "); reset to an earlier event");
				}
				return i;
			}
			first = last + 1;
		}
		throw new IllegalArgumentException(
				"No event " + eventId + " in the run's history (it has " + (first - 1) + " events)");
	}

	/**
	 * The command an answer is for (child started or closed, external message delivered),
	 * or {@code null} when the event is no answer.
	 */
	private static Long answeredCommand(Event event) {
		return switch (event) {
			case ChildStarted answer -> answer.seq();
			case ChildStartFailed answer -> answer.seq();
			case ChildClosed answer -> answer.seq();
			case ExternalDelivered answer -> answer.seq();
			default -> null;
		};
	}

	private static String answerKey(Event answer, long command) {
		return answer.type() + "#" + command;
	}

	/**
	 * The first row with the seed in its start event, so the new run's random values
	 * replay.
	 */
	private static TaskRecord withSeed(TaskRecord record, String seed) {
		List<Event> events = record.events()
			.stream()
			.map((e) -> (e instanceof WorkflowStarted started && started.seed() == null) ? started.withSeed(seed) : e)
			.toList();
		return new TaskRecord(record.seq(), record.time(), events, record.sizeBytes());
	}

	/** Whether the new run starts from nothing (reset to the first workflow task). */
	public boolean fromScratch() {
		return this.kept.isEmpty();
	}

}
