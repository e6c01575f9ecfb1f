package dev.durable.sample.approval;

import java.time.Instant;

/**
 * One line of a document's audit trail.
 *
 * @param at when, in workflow time
 * @param event what happened, for example {@code ESCALATED}
 * @param actor who did it ({@code system} for timers and the workflow itself)
 * @param detail more about it
 */
public record AuditEntry(Instant at, String event, String actor, String detail) {
}
