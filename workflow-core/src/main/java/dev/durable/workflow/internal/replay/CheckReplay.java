package dev.durable.workflow.internal.replay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.engine.ReplayCheckOptions;
import dev.durable.workflow.engine.ReplayCheckReport;
import dev.durable.workflow.engine.ReplayCheckReport.FailureKind;
import dev.durable.workflow.engine.ReplayCheckReport.RunFailure;
import dev.durable.workflow.engine.ReplayCheckReport.TypeResult;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.runtime.RunIdentity;
import dev.durable.workflow.internal.store.ReplaySamples;
import dev.durable.workflow.internal.store.ReplaySamples.SampledRun;

/**
 * Replays histories against the workflow code of this node and reports every one that
 * does not replay: the sampled runs of the database per type, or exported histories.
 * Changes nothing; each history replays on a fresh instance outside any worker.
 */
public final class CheckReplay {

	private final String namespace;

	private final WorkflowRegistry workflows;

	private final ReplaySamples samples;

	private final Consumer<UUID> storedReplay;

	/**
	 * @param storedReplay replays a stored run by its id, throwing when it does not
	 * replay
	 */
	public CheckReplay(String namespace, WorkflowRegistry workflows, ReplaySamples samples,
			Consumer<UUID> storedReplay) {
		this.namespace = namespace;
		this.workflows = workflows;
		this.samples = samples;
		this.storedReplay = storedReplay;
	}

	/**
	 * Replays the sampled runs of each type the options name (every type registered here
	 * when they name none).
	 * @throws UnknownWorkflowTypeException when the options name a type this node does
	 * not register by name: it has no code of that type to check
	 */
	public ReplayCheckReport stored(ReplayCheckOptions options) {
		List<String> registered = this.workflows.applicationTypeNames();
		List<String> types = options.workflowTypes().isEmpty() ? registered : options.workflowTypes();
		for (String type : types) {
			if (!registered.contains(type)) {
				throw new UnknownWorkflowTypeException("Workflow type '" + type
						+ "' is not registered on this node: it has no code of that type to replay");
			}
		}
		List<TypeResult> results = new ArrayList<>();
		for (String type : types) {
			List<SampledRun> runs = this.samples.sample(this.namespace, type, options.sampleSize(),
					options.openRunsOnly());
			List<RunFailure> failures = new ArrayList<>();
			for (SampledRun run : runs) {
				try {
					this.storedReplay.accept(run.runId());
				}
				catch (RuntimeException ex) {
					failures.add(ReplayFailures.describe(ex, type, run.workflowId(), run.runId()));
				}
			}
			results.add(new TypeResult(type, runs.size(), failures));
		}
		return new ReplayCheckReport(results);
	}

	/**
	 * Replays exported histories, each against this node's class of the type its start
	 * names; grouped by type in the order first met.
	 * @param histories the histories by name (a file name, say)
	 * @param knownType whether there is code of a type to replay its histories on
	 * @param replay replays a history of a known type, throwing when it does not replay
	 */
	public static ReplayCheckReport exported(Map<String, List<HistoryEvent>> histories, Predicate<String> knownType,
			Consumer<List<HistoryEvent>> replay) {
		Map<String, List<RunFailure>> failures = new LinkedHashMap<>();
		Map<String, Integer> checked = new LinkedHashMap<>();
		histories.forEach((name, history) -> {
			RunIdentity identity;
			try {
				identity = HistoryImport.identity(history, "");
			}
			catch (RuntimeException ex) {
				count(checked, failures, "");
				failures.get("").add(ReplayFailures.describe(ex, "", name, null));
				return;
			}
			String type = identity.workflowType();
			String workflowId = "replay".equals(identity.workflowId()) ? name : identity.workflowId();
			count(checked, failures, type);
			if (!knownType.test(type)) {
				failures.get(type)
					.add(new RunFailure(type, workflowId, identity.runId().toString(), FailureKind.UNKNOWN_TYPE, 0,
							null, null, "Workflow type '" + type + "' is not registered on this node"));
				return;
			}
			try {
				replay.accept(history);
			}
			catch (RuntimeException ex) {
				failures.get(type).add(ReplayFailures.describe(ex, type, workflowId, identity.runId()));
			}
		});
		List<TypeResult> results = new ArrayList<>();
		checked.forEach((type, n) -> results.add(new TypeResult(type, n, failures.get(type))));
		return new ReplayCheckReport(results);
	}

	private static void count(Map<String, Integer> checked, Map<String, List<RunFailure>> failures, String type) {
		checked.merge(type, 1, Integer::sum);
		failures.computeIfAbsent(type, (t) -> new ArrayList<>());
	}

}
