package dev.durable.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;

import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code durable} command: lists, inspects and operates the workflows, batches and
 * schedules of a running application through its REST API. {@link #main} exits with the
 * code of {@link ExitCode}; {@link #run} does the same work and answers the code, for a
 * caller in the same JVM (a test, a tool of one's own).
 */
public final class DurableCli {

	private static final Map<String, Consumer<Invocation>> COMMANDS = Map.ofEntries(
			Map.entry("types", WorkflowCommands::types), Map.entry("list", WorkflowCommands::list),
			Map.entry("describe", WorkflowCommands::describe), Map.entry("history", HistoryCommand::run),
			Map.entry("start", WorkflowCommands::start), Map.entry("result", WorkflowCommands::result),
			Map.entry("signal", MessageCommands::signal), Map.entry("query", MessageCommands::query),
			Map.entry("update", MessageCommands::update), Map.entry("cancel", WorkflowCommands::cancel),
			Map.entry("terminate", WorkflowCommands::terminate), Map.entry("reset", WorkflowCommands::reset),
			Map.entry("pause", WorkflowCommands::pause), Map.entry("unpause", WorkflowCommands::unpause),
			Map.entry("activity", ActivityCommands::run), Map.entry("batch", BatchCommands::run),
			Map.entry("schedules", ScheduleCommands::run), Map.entry("replay-check", ReplayCheckCommand::run),
			Map.entry("builds", BuildCommands::run), Map.entry("move-build", BuildCommands::moveRun));

	private DurableCli() {
	}

	/**
	 * Runs the command line and exits with its code.
	 * @param args the command line
	 */
	public static void main(String[] args) {
		System.exit(run(args, System.out, System.err, System.getenv()));
	}

	/**
	 * Runs a command line.
	 * @param args the command line
	 * @param out where results go
	 * @param err where errors go
	 * @param env the environment: {@code DURABLE_URL}, {@code DURABLE_TOKEN},
	 * {@code DURABLE_USER}, {@code DURABLE_PASSWORD}, {@code DURABLE_OUTPUT}
	 * @return the exit code ({@link ExitCode})
	 */
	public static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env) {
		JsonMapper json = JsonMapper.builder().build();
		Output output = null;
		try {
			CommandLine line = CommandLine.parse(args);
			String command = line.positional(0);
			if (line.flag("help") || "help".equals(command)) {
				out.print(usage());
				return ExitCode.OK;
			}
			if (command == null) {
				err.print(usage());
				return ExitCode.USAGE;
			}
			Consumer<Invocation> action = COMMANDS.get(command);
			if (action == null) {
				throw CliException.usage("Unknown command '" + command + "'");
			}
			output = new Output(out,
					Output.Format.of(line.option("output", env.getOrDefault("DURABLE_OUTPUT", "table"))), json);
			action.accept(new Invocation(line, DurableApi.of(line, env, json), output));
			return ExitCode.OK;
		}
		catch (CliException ex) {
			err.println("durable: " + ex.getMessage());
			if (ex.exitCode() == ExitCode.USAGE) {
				err.println("Run 'durable --help' for the commands and their options.");
			}
			if (output != null && output.isJson() && ex.problem() != null) {
				output.json(ex.problem());
			}
			return ex.exitCode();
		}
		catch (RuntimeException ex) {
			err.println("durable: " + ex);
			return ExitCode.ERROR;
		}
		finally {
			out.flush();
			err.flush();
		}
	}

	private static String usage() {
		try (InputStream text = DurableCli.class.getResourceAsStream("usage.txt")) {
			if (text == null) {
				return "durable: the usage text is missing from the jar\n";
			}
			return new String(text.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "durable: cannot read the usage text: " + ex.getMessage() + "\n";
		}
	}

}
