package dev.durable.workflow.test;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.payload.EncryptingPayloadConverter;
import dev.durable.workflow.test.fixtures.Greeter;
import dev.durable.workflow.test.fixtures.RealGreeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Histories of an engine with an {@link EncryptingPayloadConverter} replay: exported by a
 * node with the key they hold decrypted values; exported by a node without it they hold
 * the stored bytes, which the replayer reads with the converter.
 */
class EncryptedHistoryReplayTest {

	public record Parcel(String to, int count) {
	}

	/** Its commands depend on the decoded input and activity result. */
	@Workflow("sealed-parcel")
	public static class SealedParcel {

		private final Greeter greeter;

		public SealedParcel(Greeter greeter) {
			this.greeter = greeter;
		}

		@WorkflowRun
		public String run(Parcel parcel) {
			String greeting = this.greeter.greet(parcel.to());
			for (int i = 1; i < parcel.count(); i++) {
				greeting = this.greeter.greet(greeting);
			}
			return greeting;
		}

	}

	/** An incompatible change: a timer before the first activity. */
	@Workflow("sealed-parcel")
	public static class SealedParcelV2 {

		private final Greeter greeter;

		public SealedParcelV2(Greeter greeter) {
			this.greeter = greeter;
		}

		@WorkflowRun
		public String run(Parcel parcel) {
			Workflows.sleep(Duration.ofSeconds(1));
			return this.greeter.greet(parcel.to());
		}

	}

	private static final EncryptingPayloadConverter CONVERTER = EncryptingPayloadConverter.builder()
		.key("k1", key(7))
		.currentKey("k1")
		.build();

	private static String decrypted;

	private static String undecoded;

	@BeforeAll
	static void record() {
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.builder()
			.registerWorkflows(SealedParcel.class)
			.registerActivities(new RealGreeter())
			.customize((builder) -> builder.payloadConverter(CONVERTER))
			.build()) {
			WorkflowHandle<String> handle = env.client()
				.start(SealedParcel::run, new Parcel("Ada", 2), StartOptions.withId("parcel-ada"));
			assertThat(handle.result()).isEqualTo("Hello Hello Ada");
			JsonMapper mapper = JsonMapper.builder().build();
			decrypted = mapper.writeValueAsString(handle.history());
			// a node that does not have k1 (a support laptop, a node of another team)
			EncryptingPayloadConverter otherKey = EncryptingPayloadConverter.builder()
				.key("k2", key(9))
				.currentKey("k2")
				.build();
			undecoded = mapper
				.writeValueAsString(env.newWorkerEngine((builder) -> builder.worker(false).payloadConverter(otherKey))
					.client()
					.handle("parcel-ada")
					.history());
		}
	}

	@Test
	void aHistoryExportedWithTheKeyHoldsDecryptedValuesAndReplays() {
		assertThat(decrypted).contains("\"Ada\"").contains("Hello Hello Ada").doesNotContain("$encoded");
		WorkflowReplayer.replay(SealedParcel.class, decrypted);
		WorkflowReplayer.replay(SealedParcel.class, decrypted,
				WorkflowReplayer.Options.defaults().withPayloadConverter(CONVERTER));
	}

	@Test
	void aHistoryExportedWithoutTheKeyReplaysWithTheConverter() {
		assertThat(undecoded).contains("\"$undecodable\":\"The payload is encrypted with unknown key id 'k1'")
			.contains("\"$encoded\"")
			.doesNotContain("Ada");
		assertThatThrownBy(() -> WorkflowReplayer.replay(SealedParcel.class, undecoded))
			.isInstanceOf(PayloadException.class)
			.hasMessageContaining("encrypted with key id 'k1' that was exported undecrypted");
		WorkflowReplayer.replay(SealedParcel.class, undecoded,
				WorkflowReplayer.Options.defaults().withPayloadConverter(CONVERTER));
		WorkflowReplayer
			.replayAll(SealedParcel.class, Map.of("decrypted", decrypted, "undecoded", undecoded),
					WorkflowReplayer.Options.defaults()
						.withPayloadConverter(CONVERTER)
						.withFactory(WorkflowReplayer.stubFactory()))
			.throwIfFailed();
	}

	@Test
	void anIncompatibleChangeIsStillReported() {
		assertThatThrownBy(() -> WorkflowReplayer.replay(SealedParcelV2.class, undecoded,
				WorkflowReplayer.Options.defaults().withPayloadConverter(CONVERTER)))
			.isInstanceOfSatisfying(NonDeterministicWorkflowException.class,
					(ex) -> assertThat(ex.recordedCommand()).isEqualTo("ACTIVITY_SCHEDULED#1(greet)"));
	}

	private static byte[] key(int seed) {
		byte[] key = new byte[32];
		Arrays.fill(key, (byte) seed);
		return key;
	}

}
