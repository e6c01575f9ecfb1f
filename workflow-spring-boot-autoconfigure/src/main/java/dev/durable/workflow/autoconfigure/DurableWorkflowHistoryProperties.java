package dev.durable.workflow.autoconfigure;

import org.springframework.util.unit.DataSize;

/**
 * Limits on the history of one run.
 * <p>
 * Bound to {@code durable.workflow.history.*}, as a part of
 * {@link DurableWorkflowProperties}.
 */
public class DurableWorkflowHistoryProperties {

	/**
	 * Events in a run's history past which Workflows.info().continueAsNewSuggested() is
	 * true.
	 */
	private long suggestedEvents = 4_096;

	/**
	 * History size past which Workflows.info().continueAsNewSuggested() is true.
	 */
	private DataSize suggestedSize = DataSize.ofMegabytes(4);

	/**
	 * Events past which a run is terminated (it should have continued as new).
	 */
	private long maxEvents = 51_200;

	/**
	 * History size past which a run is terminated.
	 */
	private DataSize maxSize = DataSize.ofMegabytes(50);

	public long getSuggestedEvents() {
		return this.suggestedEvents;
	}

	public void setSuggestedEvents(long suggestedEvents) {
		this.suggestedEvents = suggestedEvents;
	}

	public DataSize getSuggestedSize() {
		return this.suggestedSize;
	}

	public void setSuggestedSize(DataSize suggestedSize) {
		this.suggestedSize = suggestedSize;
	}

	public long getMaxEvents() {
		return this.maxEvents;
	}

	public void setMaxEvents(long maxEvents) {
		this.maxEvents = maxEvents;
	}

	public DataSize getMaxSize() {
		return this.maxSize;
	}

	public void setMaxSize(DataSize maxSize) {
		this.maxSize = maxSize;
	}

}
