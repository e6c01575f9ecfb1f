package dev.durable.docs.workflows;

/** The input of the guide's {@link ReminderWorkflow}. */
public record Reminder(String text) {
}
