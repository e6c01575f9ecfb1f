package dev.durable.chaos;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The harness's command line: the full run's defaults, overrides, and clear refusals. */
class ChaosOptionsTest {

	@Test
	void withoutArgumentsItIsTheFullRun() {
		ChaosOptions options = ChaosOptions.parse(new String[0]);
		assertThat(options).isEqualTo(ChaosOptions.full());
		assertThat(options.workflows()).isEqualTo(1000);
		assertThat(options.nodes()).isEqualTo(3);
		assertThat(options.databaseUrl()).isNull();
	}

	@Test
	void argumentsOverrideTheDefaults() {
		ChaosOptions options = ChaosOptions.parse(new String[] { "--workflows=50", "--duration=90", "--cut=PT10S",
				"--pause=false", "--databaseUrl=jdbc:postgresql://db:5432/app", "--databaseUser=app" });
		assertThat(options.workflows()).isEqualTo(50);
		assertThat(options.duration()).isEqualTo(Duration.ofSeconds(90));
		assertThat(options.cut()).isEqualTo(Duration.ofSeconds(10));
		assertThat(options.pause()).isFalse();
		assertThat(options.databaseUrl()).isEqualTo("jdbc:postgresql://db:5432/app");
		assertThat(options.databaseUser()).isEqualTo("app");
	}

	@Test
	void aClockSkewPutsTheFirstNodeAheadAndTheSecondBehind() {
		ChaosOptions options = ChaosOptions.parse(new String[] { "--clockSkew=PT30S" });
		assertThat(options.clockSkew()).isEqualTo(Duration.ofSeconds(30));
		assertThat(options.clockOffset(1)).isEqualTo(Duration.ofSeconds(30));
		assertThat(options.clockOffset(2)).isEqualTo(Duration.ofSeconds(-30));
		assertThat(options.clockOffset(3)).isZero();
		assertThat(ChaosOptions.parse(new String[0]).clockOffset(1)).isZero();
	}

	@Test
	void networkFaultsAreAllOrANamedFewAndMoveThePorts() {
		assertThat(ChaosOptions.full().network()).isEmpty();
		ChaosOptions all = ChaosOptions.parse(new String[] { "--network=true" });
		assertThat(all.network()).isEqualTo(ChaosOptions.NETWORK_FAULTS);
		assertThat(all.firstPort()).isEqualTo(ChaosOptions.NETWORK_FIRST_PORT);
		assertThat(ChaosOptions.parse(new String[] { "--network=partition,loss" }).network())
			.containsExactly("partition", "loss");
		assertThatThrownBy(() -> ChaosOptions.parse(new String[] { "--network=netem" }))
			.hasMessageContaining("Unknown network fault netem");
	}

	@Test
	void unknownOrMalformedArgumentsAreRefused() {
		assertThatThrownBy(() -> ChaosOptions.parse(new String[] { "--workflow=5" }))
			.hasMessageContaining("Unknown option --workflow");
		assertThatThrownBy(() -> ChaosOptions.parse(new String[] { "workflows=5" }))
			.hasMessageContaining("--name=value");
	}

}
