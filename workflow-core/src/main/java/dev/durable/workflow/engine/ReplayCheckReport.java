package dev.durable.workflow.engine;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What a replay check found: for each workflow type, how many histories were replayed
 * against the node's code and which did not replay. Written by
 * {@link WorkflowEngine#checkReplay(ReplayCheckOptions)} (stored histories) and
 * {@link WorkflowEngine#checkReplay(java.util.Map)} (exported ones).
 *
 * @param types the result of each type checked, in the order checked
 */
public record ReplayCheckReport(List<TypeResult> types) {

	public ReplayCheckReport {
		types = List.copyOf(types);
	}

	/** Whether every history replayed. */
	public boolean passed() {
		return this.types.stream().allMatch((type) -> type.failures().isEmpty());
	}

	/** How many histories were replayed, in all types. */
	public int checked() {
		return this.types.stream().mapToInt(TypeResult::checked).sum();
	}

	/** Every history that did not replay, type by type. */
	public List<RunFailure> failures() {
		return this.types.stream().flatMap((type) -> type.failures().stream()).toList();
	}

	/**
	 * The types some history of which did not replay: this code must not run these types'
	 * open runs as it is.
	 */
	public List<String> failedTypes() {
		return this.types.stream().filter((type) -> !type.failures().isEmpty()).map(TypeResult::workflowType).toList();
	}

	/**
	 * One line for a log: how many histories of how many types replayed, or how many did
	 * not and the first of them.
	 */
	public String summary() {
		List<RunFailure> failures = failures();
		String checked = count(checked(), "history", "histories") + " of "
				+ count(this.types.size(), "workflow type", "workflow types");
		if (failures.isEmpty()) {
			return checked + ": every one replays on this code";
		}
		RunFailure first = failures.get(0);
		return failures.size() + " of " + checked + ((failures.size() == 1) ? " does" : " do")
				+ " not replay on this code (" + String.join(", ", failedTypes()) + "); first, " + first.workflowType()
				+ " " + first.workflowId() + ": " + first.message();
	}

	private static String count(int n, String one, String many) {
		return n + " " + ((n == 1) ? one : many);
	}

	/**
	 * The histories of one type.
	 *
	 * @param workflowType the workflow type
	 * @param checked how many of its histories were replayed
	 * @param failures those that did not replay
	 */
	public record TypeResult(String workflowType, int checked, List<RunFailure> failures) {

		public TypeResult {
			failures = List.copyOf(failures);
		}

	}

	/** Why a history does not replay. */
	public enum FailureKind {

		/**
		 * The code issues other commands than the history holds: a change that is not
		 * replay-safe (guard it with {@code Workflows.getVersion}, or let the runs of the
		 * old code finish on it).
		 */
		MISMATCH,

		/** No workflow class of the node has the history's type. */
		UNKNOWN_TYPE,

		/**
		 * Another reason: the workflow code threw where it did not before, a payload no
		 * longer reads as its parameter type, a history that cannot be read.
		 */
		ERROR

	}

	/**
	 * A history that did not replay.
	 *
	 * @param workflowType the workflow type
	 * @param workflowId the workflow id (for an exported history that has none, its name)
	 * @param runId the run id, or {@code null} when the history does not say
	 * @param kind why it did not replay
	 * @param workflowTask the workflow task where it first went wrong, 0 when not known
	 * @param recordedCommand the command the history holds there, or {@code null}
	 * @param issuedCommand the command the code issued instead, or {@code null}
	 * @param message the first mismatch, in words
	 */
	public record RunFailure(String workflowType, String workflowId, @Nullable String runId, FailureKind kind,
			int workflowTask, @Nullable String recordedCommand, @Nullable String issuedCommand, String message) {
	}

}
