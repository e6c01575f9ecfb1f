package dev.durable.workflow.engine;

import dev.durable.workflow.internal.schedule.ScheduleLoop;
import dev.durable.workflow.internal.worker.Engine;

/**
 * The engine's own tests reach the node behind a {@link WorkflowEngine} through here: the
 * public API has no door to it.
 */
public final class EngineInternals {

	private EngineInternals() {
	}

	public static Engine node(WorkflowEngine engine) {
		return engine.parts().node;
	}

	public static ScheduleLoop scheduleLoop(WorkflowEngine engine) {
		return engine.parts().scheduleLoop;
	}

}
