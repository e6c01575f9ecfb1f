package dev.durable.docs.events;

import java.util.List;

/** The input of the guide's {@link ReportWorkflow}. */
public record ReportRequest(List<String> parts) {
}
