package dev.durable.workflow.web;

import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.durable.workflow.client.StreamEntry;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;

/**
 * The generated REST endpoints for what workflows publish: an event's value, waiting
 * until it is set ({@code GET .../events/{key}?wait=PT30S}), and a stream as Server-Sent
 * Events ({@code GET .../streams/{key}}), each value an SSE event whose id is its offset,
 * so that a client that reconnects with {@code Last-Event-ID} goes on after the last
 * value it got. The stream's end (closed by the workflow, or the run closed) is an event
 * named {@code end}, then the response ends. Without {@code ?runId=} the latest run of
 * the workflow id is read.
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}/workflows/{workflowId}")
public class WorkflowOutputController {

	/**
	 * How long one SSE response stays open; a client (an EventSource reconnects by
	 * itself) goes on with {@code Last-Event-ID}. Bounded so that a reader left open does
	 * not hold its thread and connection for ever.
	 */
	static final Duration STREAM_RESPONSE_LIMIT = Duration.ofMinutes(30);

	private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");

	private static final Log logger = LogFactory.getLog(WorkflowOutputController.class);

	private final WorkflowClient client;

	private final WebPayloads payloads;

	public WorkflowOutputController(WorkflowClient client, WebPayloads payloads) {
		this.client = client;
		this.payloads = payloads;
	}

	/**
	 * An event's value: 200 {@code {"key","value"}}; waits up to {@code wait} (at most a
	 * minute) for it to be set; 404 {@code EVENT_NOT_SET} when it is not set by then or
	 * the run closed without setting it.
	 */
	@GetMapping("/events/{key}")
	Map<String, Object> event(@PathVariable String workflowId, @PathVariable String key,
			@RequestParam(required = false) @Nullable Duration wait,
			@RequestParam(required = false) @Nullable UUID runId) {
		checkKey(key, "event");
		Duration bounded = Waits.bounded(wait);
		Optional<Object> value = handle(workflowId, runId).getEvent(key, Object.class, bounded);
		if (value.isEmpty()) {
			throw new OutputProblemException(HttpStatus.NOT_FOUND, OutputProblemException.EVENT_NOT_SET,
					"Event '" + key + "' of workflow '" + workflowId + "' is not set"
							+ (bounded.isZero() ? "" : " after waiting " + bounded)
							+ "; ask again (with ?wait=PT30S to wait for it) unless the run is closed");
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("key", key);
		body.put("value", value.get());
		return body;
	}

	/**
	 * A stream as Server-Sent Events from {@code from} (default 0), or after the offset a
	 * reconnecting client names in {@code Last-Event-ID}.
	 */
	@GetMapping(path = "/streams/{key}", produces = { MediaType.TEXT_EVENT_STREAM_VALUE, MediaType.ALL_VALUE })
	SseEmitter stream(@PathVariable String workflowId, @PathVariable String key,
			@RequestParam(required = false) @Nullable String from,
			@RequestHeader(name = "Last-Event-ID", required = false) @Nullable String lastEventId,
			@RequestParam(required = false) @Nullable UUID runId) {
		checkKey(key, "stream");
		long offset = (lastEventId != null) ? offset(lastEventId, "Last-Event-ID") + 1
				: (from != null) ? offset(from, "from") : 0;
		// before the response starts: an unknown workflow is a 404 problem, not an event
		// stream
		Stream<StreamEntry<Object>> values = handle(workflowId, runId).readStream(key, offset, Object.class);
		SseEmitter emitter = new SseEmitter(STREAM_RESPONSE_LIMIT.toMillis());
		emitter.onCompletion(values::close);
		emitter.onTimeout(() -> {
			values.close();
			emitter.complete();
		});
		emitter.onError((ex) -> values.close());
		Thread.ofVirtual().name("durable-sse-" + key).start(() -> send(emitter, values));
		return emitter;
	}

	private void send(SseEmitter emitter, Stream<StreamEntry<Object>> values) {
		try (values) {
			Iterator<StreamEntry<Object>> entries = values.iterator();
			while (entries.hasNext()) {
				StreamEntry<Object> entry = entries.next();
				emitter.send(SseEmitter.event()
					.id(Long.toString(entry.offset()))
					.data(this.payloads.mapper().writeValueAsString(entry.value()), MediaType.TEXT_PLAIN));
			}
			emitter.send(SseEmitter.event().name("end").data("{}", MediaType.TEXT_PLAIN));
			emitter.complete();
		}
		catch (IOException | IllegalStateException ex) {
			// the client went away, or the response timed out: nothing to answer
			logger.debug("Server-Sent Events stream ended: " + ex.getMessage());
		}
		catch (RuntimeException ex) {
			logger.warn("Server-Sent Events stream failed", ex);
			emitter.completeWithError(ex);
		}
	}

	private WorkflowHandle<Object> handle(String workflowId, @Nullable UUID runId) {
		return (runId != null) ? this.client.handle(workflowId, runId) : this.client.handle(workflowId);
	}

	private static void checkKey(String key, String what) {
		if (!KEY.matcher(key).matches()) {
			throw new OutputProblemException(HttpStatus.BAD_REQUEST, OutputProblemException.INVALID_KEY,
					"Invalid " + what + " key: use 1-128 letters, digits and . _ : @ -");
		}
	}

	private static long offset(String text, String what) {
		try {
			long offset = Long.parseLong(text.strip());
			if (offset >= 0) {
				return offset;
			}
		}
		catch (NumberFormatException ex) {
			// answered below
		}
		throw new OutputProblemException(HttpStatus.BAD_REQUEST, OutputProblemException.INVALID_OFFSET,
				"'" + what + "' must be a stream offset: a whole number from 0");
	}

}
