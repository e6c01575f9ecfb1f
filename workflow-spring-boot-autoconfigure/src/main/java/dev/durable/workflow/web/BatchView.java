package dev.durable.workflow.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.batch.BatchRequest;
import dev.durable.workflow.client.batch.BatchStatus;

/**
 * A batch as the endpoints show it: {@code batchId}, {@code operation}, {@code state},
 * {@code filter} (the fields a batch request takes, the search-attribute conditions as a
 * {@code query}), {@code reason}, the counts, {@code recentFailures}, {@code createdAt},
 * {@code closedAt}; plus {@code signal} for a SIGNAL batch and {@code resetTo} for a
 * RESET one.
 */
final class BatchView {

	private BatchView() {
	}

	static Map<String, Object> of(BatchStatus batch) {
		BatchRequest request = batch.request();
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("batchId", batch.batchId());
		view.put("operation", request.operation().name());
		view.put("state", batch.state().name());
		view.put("filter", filter(request.filter()));
		view.put("reason", request.reason());
		if (request.signalName() != null) {
			Map<String, Object> signal = new LinkedHashMap<>();
			signal.put("name", request.signalName());
			signal.put("args", (request.signalPayload() != null) ? List.of(request.signalPayload()) : List.of());
			view.put("signal", signal);
		}
		if (request.resetPoint() != null) {
			view.put("resetTo", request.resetPoint().name());
		}
		view.put("pageSize", request.pageSize());
		view.put("total", batch.total());
		view.put("processed", batch.processed());
		view.put("succeeded", batch.succeeded());
		view.put("skipped", batch.skipped());
		view.put("failed", batch.failed());
		view.put("recentFailures",
				batch.recentFailures()
					.stream()
					.map((failure) -> Map.of("workflowId", failure.workflowId(), "message", failure.message()))
					.toList());
		view.put("createdAt", batch.createdAt());
		view.put("closedAt", batch.closedAt());
		return view;
	}

	private static Map<String, Object> filter(WorkflowFilter filter) {
		Map<String, Object> view = new LinkedHashMap<>();
		putIfSet(view, "type", filter.type());
		if (!filter.statuses().isEmpty()) {
			view.put("status", filter.statuses().stream().map(Enum::name).sorted().toList());
		}
		putIfSet(view, "query", SearchQuery.render(filter.conditions()));
		putIfSet(view, "startedFrom", filter.startedFrom());
		putIfSet(view, "startedTo", filter.startedTo());
		putIfSet(view, "closedFrom", filter.closedFrom());
		putIfSet(view, "closedTo", filter.closedTo());
		putIfSet(view, "workflowIdPrefix", filter.workflowIdPrefix());
		return view;
	}

	private static void putIfSet(Map<String, Object> view, String key, Object value) {
		if (value != null) {
			view.put(key, value);
		}
	}

}
