package dev.durable.cli;

/** The exit codes of the tool: stable, so that a script can act on them. */
public final class ExitCode {

	/** The command did what it was asked. */
	public static final int OK = 0;

	/**
	 * Anything else that went wrong (an answer the tool cannot read, an interrupted
	 * wait).
	 */
	public static final int ERROR = 1;

	/**
	 * The command line is wrong: an unknown command or option, a missing argument, bad
	 * JSON.
	 */
	public static final int USAGE = 2;

	/**
	 * The server answered 404: no such workflow, run, handler, update, batch or schedule.
	 */
	public static final int NOT_FOUND = 3;

	/**
	 * The server refused the request with another 4xx: a conflict, a closed run, a
	 * rejected update, no permission.
	 */
	public static final int REJECTED = 4;

	/**
	 * The server could not be reached, timed out or answered 5xx (database unavailable,
	 * say).
	 */
	public static final int UNAVAILABLE = 5;

	/**
	 * {@code replay-check}: some run does not replay on the node's code (the report says
	 * which and where).
	 */
	public static final int NOT_REPLAYABLE = 6;

	private ExitCode() {
	}

	/**
	 * The exit code for an HTTP error status.
	 * @param status the status of the answer
	 * @return {@link #NOT_FOUND}, {@link #REJECTED}, {@link #UNAVAILABLE} or
	 * {@link #ERROR}
	 */
	public static int ofStatus(int status) {
		if (status == 404) {
			return NOT_FOUND;
		}
		if (status >= 400 && status < 500) {
			return REJECTED;
		}
		if (status >= 500) {
			return UNAVAILABLE;
		}
		return ERROR;
	}

}
