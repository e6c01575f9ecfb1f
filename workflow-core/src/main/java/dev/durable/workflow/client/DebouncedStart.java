package dev.durable.workflow.client;

import java.time.Instant;

/**
 * What a debounced call did: the window it joined (or opened) and when that window's run
 * starts as of this call.
 *
 * @param key the debounce key
 * @param workflowId the workflow id the window's run will have: follow it with
 * {@link WorkflowClient#handle(String)} once it started
 * @param startsAt when the run starts unless another call moves it (by the engine's
 * clock)
 * @param calls how many calls the window collapsed so far, this one included
 */
public record DebouncedStart(String key, String workflowId, Instant startsAt, int calls) {
}
