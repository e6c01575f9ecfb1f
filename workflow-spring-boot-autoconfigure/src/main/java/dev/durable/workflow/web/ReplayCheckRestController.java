package dev.durable.workflow.web;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.engine.ReplayCheckOptions;
import dev.durable.workflow.engine.ReplayCheckReport;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.PayloadException;

/**
 * The generated REST endpoint of the replay check: {@code GET /durable/replay-check}
 * replays a sample of the stored runs of each workflow type on this node's code;
 * {@code POST /durable/replay-check} with {@code {"name": [events...], ...}} replays
 * exported histories (as {@code GET /durable/workflows/{id}/history} returns them) on it.
 * Both answer the report and change nothing, so both are reads: ask a node of the build
 * about to take the runs.
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}/replay-check")
public class ReplayCheckRestController {

	private final WorkflowEngine engine;

	private final WebPayloads payloads;

	public ReplayCheckRestController(WorkflowEngine engine, WebPayloads payloads) {
		this.engine = engine;
		this.payloads = payloads;
	}

	@GetMapping
	ReplayCheckReport checkStored(@RequestParam(name = "workflowType", required = false) @Nullable List<String> types,
			@RequestParam(name = "sampleSize", required = false) @Nullable Integer sampleSize,
			@RequestParam(name = "openRunsOnly", defaultValue = "false") boolean openRunsOnly) {
		ReplayCheckOptions options = ReplayCheckOptions.defaults()
			.withWorkflowTypes((types != null) ? types : List.of())
			.withOpenRunsOnly(openRunsOnly);
		// an out-of-range size is the options' IllegalArgumentException: 400
		// INVALID_PAYLOAD
		return this.engine.checkReplay((sampleSize != null) ? options.withSampleSize(sampleSize) : options);
	}

	@ReadEndpoint
	@PostMapping
	ReplayCheckReport checkExported(HttpEntity<byte @Nullable []> body) {
		// histories in all up to the size one history may reach
		JsonNode request = this.payloads.parse(body, this.engine.settings().historyLimits().maxBytes(),
				"durable.workflow.history.max-size");
		if (!request.isObject() || request.isEmpty()) {
			throw new PayloadException("The body must be a JSON object of exported histories by name:"
					+ " {\"order-42.json\": [events as GET /durable/workflows/{workflowId}/history returns them]}",
					false, null);
		}
		Map<String, List<HistoryEvent>> histories = new LinkedHashMap<>();
		List<String> names = new ArrayList<>(request.propertyNames());
		for (String name : names) {
			JsonNode events = request.get(name);
			if (!events.isArray()) {
				throw notAHistory(name, null);
			}
			HistoryEvent[] parsed;
			try {
				parsed = (HistoryEvent[]) this.payloads.convert(events, HistoryEvent[].class, "history '" + name + "'");
			}
			catch (PayloadException ex) {
				throw notAHistory(name, ex);
			}
			if (parsed == null || Arrays.asList(parsed).contains(null)) {
				throw notAHistory(name, null);
			}
			histories.put(name, List.of(parsed));
		}
		return this.engine.checkReplay(histories);
	}

	private static PayloadException notAHistory(String name, @Nullable RuntimeException cause) {
		return new PayloadException("History '" + name + "' is not an array of exported history events"
				+ " ({eventId, workflowTask, time, type, attributes}, as GET /durable/workflows/{workflowId}/history"
				+ " returns them)", false, cause);
	}

}
