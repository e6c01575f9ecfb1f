package dev.durable.workflow.internal.worker;

import java.util.concurrent.ExecutorService;

import dev.durable.workflow.internal.execution.WakeScheduler;

/**
 * Where the workflow tasks of a node run: now on the task pool, later at an instant of
 * the engine clock.
 *
 * @param pool the virtual threads that run tasks
 * @param wake what runs actions at instants of the engine clock
 */
record TaskThreads(ExecutorService pool, WakeScheduler wake) {
}
