package dev.durable.workflow.client;

/** How far an update has come. */
public enum UpdateStage {

	/** Stored and waiting for the run to take it. */
	ADMITTED,
	/** Validated and recorded in history; its handler runs. */
	ACCEPTED,
	/** Its handler returned or failed (or the validator rejected it). */
	COMPLETED

}
