package dev.durable.docs.schedules;

/** The input of the guide's {@link ReportWorkflow}. */
public record ReportRequest(String name) {
}
