package dev.durable.docs.workflows;

/** The input of the guide's {@link ReportWorkflow}. */
public record ReportRequest(String name) {
}
