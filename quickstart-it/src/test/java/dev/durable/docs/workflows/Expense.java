package dev.durable.docs.workflows;

/** The input of the guide's {@link ExpenseWorkflow}. */
public record Expense(String description, long amount) {
}
