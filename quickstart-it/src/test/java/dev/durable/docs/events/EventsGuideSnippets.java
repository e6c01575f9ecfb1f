package dev.durable.docs.events;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Flow;
import java.util.stream.Stream;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.StreamEntry;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;

/**
 * The client code of the Java block of {@code docs/events-and-streams.md}, in a method
 * whose parameters are the variables it uses.
 */
final class EventsGuideSnippets {

	private EventsGuideSnippets() {
	}

	static Flow.Publisher<StreamEntry<Progress>> readEventsAndStreams(WorkflowClient client, ReportRequest request) {
		// @formatter:off
		// snippet:events-and-streams part 2
		WorkflowHandle<String> handle = client.start(ReportWorkflow::run, request, StartOptions.withId("report-7"));
		// waits until the key is set (woken by the commit that sets it, not by polling); empty on timeout
		Optional<String> status = handle.getEvent("status", String.class, Duration.ofSeconds(30));
		// in order from offset 0, blocking and live: ends when the workflow closes the stream or the run closes
		try (Stream<StreamEntry<Progress>> values = handle.readStream("progress", 0, Progress.class)) {
		  values.forEach((entry) -> System.out.println(entry.offset() + ": " + entry.value()));
		}
		Flow.Publisher<StreamEntry<Progress>> publisher = handle.publishStream("progress", 3, Progress.class);
		// end-snippet
		// @formatter:on
		return publisher;
	}

}
