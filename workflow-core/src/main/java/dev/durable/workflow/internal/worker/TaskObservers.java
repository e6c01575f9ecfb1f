package dev.durable.workflow.internal.worker;

import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.testsupport.EngineHooks;

/**
 * Who is told what the workflow tasks of a node do: the callers waiting for results, the
 * engine's listeners, and the hooks a test sets into the commit.
 *
 * @param waiters the callers waiting for results of runs
 * @param listeners the engine's listeners and interceptors
 * @param hooks the hooks called inside the commit
 */
record TaskObservers(ResultWaiters waiters, Listeners listeners, EngineHooks hooks) {
}
