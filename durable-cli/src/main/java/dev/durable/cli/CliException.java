package dev.durable.cli;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * Why a command stopped, with the exit code it ends with and, for an error answer of the
 * server, its problem body ({@code code}, {@code detail}, ...).
 */
final class CliException extends RuntimeException {

	private final int exitCode;

	private final @Nullable JsonNode problem;

	CliException(int exitCode, String message, @Nullable JsonNode problem, @Nullable Throwable cause) {
		super(message, cause);
		this.exitCode = exitCode;
		this.problem = problem;
	}

	/** A wrong command line: exit code {@link ExitCode#USAGE}. */
	static CliException usage(String message) {
		return new CliException(ExitCode.USAGE, message, null, null);
	}

	int exitCode() {
		return this.exitCode;
	}

	@Nullable JsonNode problem() {
		return this.problem;
	}

}
