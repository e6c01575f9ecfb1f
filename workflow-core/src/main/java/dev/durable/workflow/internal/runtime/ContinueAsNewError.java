package dev.durable.workflow.internal.runtime;

/**
 * Unwinds the workflow code after continue-as-new; an Error so that catch (Exception)
 * does not stop it.
 */
final class ContinueAsNewError extends Error {

	ContinueAsNewError() {
		super("continued as new", null, false, false);
	}

}
