package dev.durable.workflow.internal.client;

import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.support.Interceptors;
import dev.durable.workflow.internal.worker.ResultWaiters;

/**
 * Who is told of a start, or wraps it: the engine's listeners, the callers waiting for
 * results, and the client interceptors.
 *
 * @param listeners the engine's listeners
 * @param waiters the callers waiting for results of runs
 * @param interceptors the interceptors of client operations
 */
public record StartObservers(Listeners listeners, ResultWaiters waiters, Interceptors interceptors) {
}
