package dev.durable.workflow.engine;

import java.util.List;

/**
 * Which stored histories {@link WorkflowEngine#checkReplay(ReplayCheckOptions)} replays
 * against the workflow code of the node: per workflow type, the most recently started
 * runs, open ones first. Immutable; each {@code with} method returns a copy.
 *
 * @param workflowTypes the types to check; empty for every type registered on the node
 * @param sampleSize at most this many runs per type (1 to {@value #MAX_SAMPLE_SIZE})
 * @param openRunsOnly whether only open runs are checked (they are the ones the code will
 * go on running); else recently closed runs fill the sample after the open ones, for the
 * paths the open runs have not taken yet
 */
public record ReplayCheckOptions(List<String> workflowTypes, int sampleSize, boolean openRunsOnly) {

	/** The sample size of {@link #defaults()}. */
	public static final int DEFAULT_SAMPLE_SIZE = 20;

	/** The largest sample size. */
	public static final int MAX_SAMPLE_SIZE = 1000;

	public ReplayCheckOptions {
		workflowTypes = List.copyOf(workflowTypes);
		if (sampleSize < 1 || sampleSize > MAX_SAMPLE_SIZE) {
			throw new IllegalArgumentException(
					"The sample size must be between 1 and " + MAX_SAMPLE_SIZE + ", was " + sampleSize);
		}
	}

	/**
	 * Every registered type, {@value #DEFAULT_SAMPLE_SIZE} runs each, open and recently
	 * closed.
	 */
	public static ReplayCheckOptions defaults() {
		return new ReplayCheckOptions(List.of(), DEFAULT_SAMPLE_SIZE, false);
	}

	public ReplayCheckOptions withWorkflowTypes(String... types) {
		return withWorkflowTypes(List.of(types));
	}

	public ReplayCheckOptions withWorkflowTypes(List<String> types) {
		return new ReplayCheckOptions(types, this.sampleSize, this.openRunsOnly);
	}

	public ReplayCheckOptions withSampleSize(int size) {
		return new ReplayCheckOptions(this.workflowTypes, size, this.openRunsOnly);
	}

	public ReplayCheckOptions withOpenRunsOnly(boolean openOnly) {
		return new ReplayCheckOptions(this.workflowTypes, this.sampleSize, openOnly);
	}

}
