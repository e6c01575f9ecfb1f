package dev.durable.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * {@code history}: a run's events, one a line; with {@code --follow}, the run's events as
 * they are recorded, polled every {@code --interval}, until the run closes. Following
 * pins the run that is the latest when it begins, so a reset or continue-as-new ends it
 * rather than mixing two runs' events. In JSON, the whole history is an array; followed,
 * one event a line (JSON Lines).
 */
final class HistoryCommand {

	private static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

	private static final int MAX_ATTRIBUTES = 100;

	private final Invocation call;

	private final String workflowId;

	private @Nullable String runId;

	private long lastEventId;

	private HistoryCommand(Invocation call, String workflowId, @Nullable String runId) {
		this.call = call;
		this.workflowId = workflowId;
		this.runId = runId;
	}

	static void run(Invocation call) {
		CommandLine line = call.line().allowOnly("run-id", "follow", "interval").atMost(2);
		HistoryCommand history = new HistoryCommand(call, line.required(1, "workflow id"), line.option("run-id"));
		if (line.flag("follow")) {
			history.follow(interval(line.option("interval")));
		}
		else if (line.option("interval") != null) {
			throw CliException.usage("--interval goes with --follow");
		}
		else {
			history.once();
		}
	}

	private void once() {
		JsonNode events = events();
		if (this.call.out().isJson()) {
			this.call.out().json(events);
			return;
		}
		header();
		events.forEach(this::print);
	}

	private void follow(Duration interval) {
		if (this.runId == null) {
			this.runId = Output.text(describe().path("runId"));
		}
		if (!this.call.out().isJson()) {
			header();
		}
		while (true) {
			printNew();
			String status = Output.text(describe().path("status"));
			if (!"RUNNING".equals(status)) {
				printNew(); // the events written with the close
				if (!this.call.out().isJson()) {
					this.call.out().line("Run " + this.runId + " closed: " + status);
				}
				return;
			}
			try {
				Thread.sleep(interval);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new CliException(ExitCode.ERROR, "Interrupted", null, ex);
			}
		}
	}

	private void printNew() {
		for (JsonNode event : events()) {
			if (event.path("eventId").asLong() > this.lastEventId) {
				this.lastEventId = event.path("eventId").asLong();
				if (this.call.out().isJson()) {
					this.call.out().jsonLine(event);
				}
				else {
					print(event);
				}
			}
		}
	}

	private JsonNode events() {
		return this.call.api()
			.get(Invocation.workflow(this.workflowId) + "/history" + DurableApi.query("runId", this.runId));
	}

	private JsonNode describe() {
		return this.call.api().get(Invocation.workflow(this.workflowId) + DurableApi.query("runId", this.runId));
	}

	private void header() {
		this.call.out()
			.line(String.format(Locale.ROOT, "%-6s %-5s %-30s %-32s %s", "EVENT", "TASK", "TIME", "TYPE",
					"ATTRIBUTES"));
	}

	private void print(JsonNode event) {
		String attributes = Output.text(event.path("attributes"));
		if (attributes.length() > MAX_ATTRIBUTES) {
			attributes = attributes.substring(0, MAX_ATTRIBUTES - 3) + "...";
		}
		this.call.out()
			.line(String
				.format(Locale.ROOT, "%-6s %-5s %-30s %-32s %s", Output.text(event.path("eventId")),
						Output.text(event.path("workflowTask")), Output.text(event.path("time")),
						Output.text(event.path("type")), attributes)
				.stripTrailing());
	}

	/** An interval: {@code 500ms}, {@code 2s}, {@code 1m}, or ISO-8601 ({@code PT2S}). */
	static Duration interval(@Nullable String text) {
		if (text == null) {
			return DEFAULT_INTERVAL;
		}
		String value = text.strip().toLowerCase(Locale.ROOT);
		try {
			Duration interval;
			if (value.startsWith("pt")) {
				interval = Duration.parse(value);
			}
			else if (value.endsWith("ms")) {
				interval = Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
			}
			else if (value.endsWith("s")) {
				interval = Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
			}
			else if (value.endsWith("m")) {
				interval = Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1)));
			}
			else {
				throw new NumberFormatException(value);
			}
			if (interval.isNegative() || interval.isZero()) {
				throw new NumberFormatException(value);
			}
			return interval;
		}
		catch (NumberFormatException | DateTimeParseException ex) {
			throw CliException
				.usage("--interval must be a positive duration such as 500ms, 2s, 1m or PT2S, not '" + text + "'");
		}
	}

}
