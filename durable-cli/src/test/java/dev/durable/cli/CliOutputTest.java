package dev.durable.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The tool's table output, the text of JSON values in it, and the command line's words.
 */
class CliOutputTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

	private final Output output = new Output(new PrintStream(this.bytes, true, StandardCharsets.UTF_8),
			Output.Format.TABLE, JSON);

	private String printed() {
		return this.bytes.toString(StandardCharsets.UTF_8);
	}

	@Test
	void tablesAlignTheirColumnsAndCutLongCells() {
		this.output.table(JSON.readTree("[{\"id\":\"a\",\"note\":\"short\"},{\"id\":\"longer-id\",\"note\":\""
				+ "x".repeat(200) + "\"},{\"id\":\"c\"}]"), new String[] { "ID", "NOTE" },
				new String[] { "id", "note" });
		List<String> lines = printed().lines().toList();
		assertThat(lines).hasSize(4);
		assertThat(lines.get(0)).isEqualTo("ID         NOTE");
		assertThat(lines.get(1)).isEqualTo("a          short");
		assertThat(lines.get(2)).startsWith("longer-id  xxx").endsWith("...").hasSize(11 + 80);
		assertThat(lines.get(3)).isEqualTo("c");
	}

	@Test
	void fieldsAlignTheirValues() {
		this.output.fields("Status", "RUNNING", "Workflow ID", "w-1");
		assertThat(printed().lines()).containsExactly("Status:      RUNNING", "Workflow ID: w-1");
	}

	@Test
	void theTextOfJsonValues() {
		assertThat(Output.text(JSON.readTree("\"plain\""))).isEqualTo("plain");
		assertThat(Output.text(JSON.readTree("null"))).isEmpty();
		assertThat(Output.text(JSON.readTree("{}").path("absent"))).isEmpty();
		assertThat(Output.text(JSON.readTree("12"))).isEqualTo("12");
		assertThat(Output.text(JSON.readTree("[\"a\",\"b\",3]"))).isEqualTo("a, b, 3");
		assertThat(Output.text(JSON.readTree("[{\"a\":1}]"))).isEqualTo("[{\"a\":1}]");
		assertThat(Output.text(JSON.readTree("{\"a\":\"b\"}"))).isEqualTo("{\"a\":\"b\"}");
	}

	@Test
	void optionsStandAnywhereAndDoubleDashEndsThem() {
		CommandLine line = CommandLine
			.parse(new String[] { "-o", "json", "signal", "--run-id=r-1", "w-1", "note", "--", "-5" });
		assertThat(line.option("output")).isEqualTo("json");
		assertThat(line.option("run-id")).isEqualTo("r-1");
		assertThat(List.of(line.positional(0), line.positional(1), line.positional(2), line.positional(3)))
			.containsExactly("signal", "w-1", "note", "-5");
		assertThat(CommandLine.parse(new String[] { "history", "w", "-f" }).flag("follow")).isTrue();
		assertThat(CommandLine.parse(new String[] { "update", "w", "setPriority", "-1.5" }).positional(3))
			.isEqualTo("-1.5");
		assertThatThrownBy(() -> CommandLine.parse(new String[] { "--follow=yes" })).isInstanceOf(CliException.class)
			.hasMessageContaining("takes no value");
		assertThatThrownBy(() -> CommandLine.parse(new String[] { "-x" })).hasMessageContaining("Unknown option -x");
	}

	@Test
	void followIntervals() {
		assertThat(HistoryCommand.interval(null)).isEqualTo(Duration.ofSeconds(1));
		assertThat(HistoryCommand.interval("250ms")).isEqualTo(Duration.ofMillis(250));
		assertThat(HistoryCommand.interval("2s")).isEqualTo(Duration.ofSeconds(2));
		assertThat(HistoryCommand.interval("1m")).isEqualTo(Duration.ofMinutes(1));
		assertThat(HistoryCommand.interval("PT0.5S")).isEqualTo(Duration.ofMillis(500));
		for (String bad : List.of("0s", "-1s", "soon", "PTxS", "5")) {
			assertThatThrownBy(() -> HistoryCommand.interval(bad)).isInstanceOf(CliException.class)
				.satisfies((ex) -> assertThat(((CliException) ex).exitCode()).isEqualTo(ExitCode.USAGE));
		}
	}

}
