package dev.durable.workflow.engine;

import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.internal.schedule.ScheduleLoop;
import dev.durable.workflow.internal.worker.Engine;
import dev.durable.workflow.testsupport.EngineQuiescence;

/**
 * What {@link EngineAssembly} builds for one {@link WorkflowEngine}.
 *
 * @param node the node: its loops, tasks and activities
 * @param client the client
 * @param scheduleLoop the schedule firing loop (started on worker nodes only)
 * @param types the registered workflow types, as the public API shows them
 * @param quiescence the test kit's view of the node
 * @param stats the database reads behind {@link WorkflowEngine#stats}
 */
record EngineParts(Engine node, WorkflowClient client, ScheduleLoop scheduleLoop, RegisteredWorkflowTypes types,
		EngineQuiescence quiescence, EngineStatsReader stats) {
}
