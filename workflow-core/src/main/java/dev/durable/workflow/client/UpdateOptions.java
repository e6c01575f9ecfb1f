package dev.durable.workflow.client;

import org.jspecify.annotations.Nullable;

/**
 * Options of an update.
 *
 * @param updateId the update id; a retried update with the same id gets the stored
 * outcome; random when null
 * @param waitForStage the stage {@code startUpdate} waits for (default ACCEPTED, also
 * when {@code null} is given)
 */
public record UpdateOptions(@Nullable String updateId, UpdateStage waitForStage) {

	/** The canonical constructor; a {@code null} stage is ACCEPTED. */
	public UpdateOptions(@Nullable String updateId, @Nullable UpdateStage waitForStage) {
		waitForStage = (waitForStage != null) ? waitForStage : UpdateStage.ACCEPTED;
		if (waitForStage == UpdateStage.ADMITTED) {
			throw new IllegalArgumentException("waitForStage must be ACCEPTED or COMPLETED");
		}
		this.updateId = updateId;
		this.waitForStage = waitForStage;
	}

	/** Defaults: random id, wait for ACCEPTED. */
	public static UpdateOptions defaults() {
		return new UpdateOptions(null, UpdateStage.ACCEPTED);
	}

	public static UpdateOptions withId(String updateId) {
		return new UpdateOptions(updateId, UpdateStage.ACCEPTED);
	}

	/** These options waiting for another stage ({@code null}: ACCEPTED). */
	public UpdateOptions waitFor(@Nullable UpdateStage stage) {
		return new UpdateOptions(this.updateId, stage);
	}

}
