package dev.durable.workflow.client;

/**
 * Options of an update.
 *
 * @param updateId the update id; a retried update with the same id gets the stored outcome;
 * random when null
 * @param waitForStage the stage {@code startUpdate} waits for (default ACCEPTED)
 */
public record UpdateOptions(String updateId, UpdateStage waitForStage) {

	public UpdateOptions {
		waitForStage = (waitForStage != null) ? waitForStage : UpdateStage.ACCEPTED;
		if (waitForStage == UpdateStage.ADMITTED) {
			throw new IllegalArgumentException("waitForStage must be ACCEPTED or COMPLETED");
		}
	}

	/** Defaults: random id, wait for ACCEPTED. */
	public static UpdateOptions defaults() {
		return new UpdateOptions(null, UpdateStage.ACCEPTED);
	}

	public static UpdateOptions withId(String updateId) {
		return new UpdateOptions(updateId, UpdateStage.ACCEPTED);
	}

	public UpdateOptions waitFor(UpdateStage stage) {
		return new UpdateOptions(this.updateId, stage);
	}

}
