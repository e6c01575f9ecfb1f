package dev.durable.workflow.internal.runtime;

import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.durable.workflow.EventMatch;
import dev.durable.workflow.TopicEvent;
import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.failure.CanceledFailure;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.TopicEventReceived;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.support.TopicNames;

/**
 * The run's waits for events on topics ({@code Workflows.awaitEvent}). Beginning a wait
 * is a command (TOPIC_WAIT_STARTED, whose commit registers the wait for the dispatch);
 * the event arrives as an input (TOPIC_EVENT_RECEIVED). A wait that ends without one (its
 * timeout, a cancellation) records TOPIC_WAIT_ENDED, whose commit removes the
 * registration; an event that reaches a wait already ended is dropped unrecorded, so the
 * code never sees it, on replay either.
 */
final class TopicWaits {

	private final CommandRecorder commands;

	private final Payloads payloads;

	/** The waits under way: their topic and match, by sequence number. */
	private final Map<Long, RunWait> waiting = new LinkedHashMap<>();

	/** Events received for waits under way, until their code takes them. */
	private final Map<Long, TopicEventReceived> arrived = new HashMap<>();

	TopicWaits(CommandRecorder commands, Payloads payloads) {
		this.commands = commands;
		this.payloads = payloads;
	}

	/**
	 * Begins wait {@code seq} and blocks the workflow thread until its event arrives or
	 * the timeout passes.
	 */
	<T> Optional<TopicEvent<T>> await(long seq, String topic, EventMatch match, Type type, Duration timeout,
			WorkflowContext context) {
		TopicNames.checkTopic(topic);
		String json = matchJson(match);
		this.commands.emit(new Event.TopicWaitStarted(seq, topic, json, match.afterPosition()));
		this.waiting.put(seq, new RunWait(RunWait.Kind.EVENT, topic, null, null, null, "an event matching " + json
				+ ((match.afterPosition() != null) ? " after position " + match.afterPosition() : "")));
		boolean received;
		try {
			if (timeout == null) {
				context.await(() -> this.arrived.containsKey(seq));
				received = true;
			}
			else {
				received = context.await(timeout, () -> this.arrived.containsKey(seq));
			}
		}
		catch (CanceledFailure ex) {
			end(seq);
			throw ex;
		}
		if (!received) {
			end(seq);
			return Optional.empty();
		}
		this.waiting.remove(seq);
		TopicEventReceived event = this.arrived.remove(seq);
		@SuppressWarnings("unchecked")
		T payload = (T) this.payloads.decode(event.payload(), type,
				"event " + event.eventId() + " of topic '" + topic + "'");
		return Optional.of(new TopicEvent<>(topic, event.eventId(), event.position(), payload, event.publishedAt()));
	}

	/**
	 * Applies TOPIC_EVENT_RECEIVED.
	 * @return whether a wait under way takes it (else it is not recorded)
	 */
	boolean received(TopicEventReceived event) {
		if (!this.waiting.containsKey(event.seq()) || this.arrived.containsKey(event.seq())) {
			return false;
		}
		this.arrived.put(event.seq(), event);
		return true;
	}

	/** The waits under way, as describe's waiting-on lists them. */
	List<RunWait> waiting() {
		return List.copyOf(this.waiting.values());
	}

	private void end(long seq) {
		this.waiting.remove(seq);
		this.arrived.remove(seq);
		if (this.commands.closeEvent() == null) {
			this.commands.emit(new Event.TopicWaitEnded(seq));
		}
	}

	/**
	 * The match as the commit stores it: the fields and their values, sorted, as JSON.
	 */
	static String matchJson(EventMatch match) {
		return new String(InternalJson.write(match.fields()), StandardCharsets.UTF_8);
	}

}
