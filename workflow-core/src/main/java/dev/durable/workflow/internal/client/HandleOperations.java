package dev.durable.workflow.internal.client;

import dev.durable.workflow.internal.versioning.WorkerBuildsImpl;

/**
 * The behaviours a workflow handle delegates to, built once per engine: a handle is only
 * a workflow id, an optional pinned run id and a result type.
 *
 * @param lookup finds the run a handle addresses
 * @param results waits for outcomes
 * @param messages signals, queries and updates
 * @param control cancel, terminate, reset, pause and unpause
 * @param describer describe and history
 * @param outputs events and streams
 * @param waits what a run waits for
 * @param activities pause, unpause, reset and options of a run's pending activities
 * @param builds the moves of a pinned run to another build
 */
public record HandleOperations(RunLookup lookup, RunResults results, MessageClient messages, RunControl control,
		RunDescriber describer, RunOutputs outputs, RunWaits waits, ActivityOperations activities,
		WorkerBuildsImpl builds) {
}
