package dev.durable.workflow.internal.wakeup;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The text of each wake-up is the one nodes of earlier versions send and read: a node of
 * either version understands the other.
 */
class WakeupCodecTest {

	private static final UUID NODE = UUID.fromString("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");

	private static final UUID RUN = UUID.fromString("0190a1b2-c3d4-7e5f-8a9b-ffffffffffff");

	@Test
	void eachKindIsWrittenAsBefore() {
		assertThat(WakeupCodec.write(Wakeup.AnyNode.INSTANCE)).isEqualTo("*");
		assertThat(WakeupCodec.write(new Wakeup.Node(NODE))).isEqualTo("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
		assertThat(WakeupCodec.write(new Wakeup.Run(NODE, RUN)))
			.isEqualTo("R:0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b:0190a1b2-c3d4-7e5f-8a9b-ffffffffffff");
		assertThat(WakeupCodec.write(new Wakeup.QueueRound(NODE, "orders")))
			.isEqualTo("Q:0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b:orders");
		assertThat(WakeupCodec.write(new Wakeup.TaskQueue("gpu"))).isEqualTo("A:gpu");
		assertThat(WakeupCodec.write(new Wakeup.Outputs(RUN))).isEqualTo("O:0190a1b2-c3d4-7e5f-8a9b-ffffffffffff");
		assertThat(WakeupCodec.write(new Wakeup.Closed(RUN))).isEqualTo("C:0190a1b2-c3d4-7e5f-8a9b-ffffffffffff");
	}

	@Test
	void theTextOfEarlierVersionsIsRead() {
		assertThat(WakeupCodec.read("*")).isEqualTo(Wakeup.AnyNode.INSTANCE);
		assertThat(WakeupCodec.read("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b")).isEqualTo(new Wakeup.Node(NODE));
		assertThat(WakeupCodec.read("R:0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b:0190a1b2-c3d4-7e5f-8a9b-ffffffffffff"))
			.isEqualTo(new Wakeup.Run(NODE, RUN));
		assertThat(WakeupCodec.read("Q:0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b:orders"))
			.isEqualTo(new Wakeup.QueueRound(NODE, "orders"));
		assertThat(WakeupCodec.read("A:gpu")).isEqualTo(new Wakeup.TaskQueue("gpu"));
		assertThat(WakeupCodec.read("O:0190a1b2-c3d4-7e5f-8a9b-ffffffffffff")).isEqualTo(new Wakeup.Outputs(RUN));
		assertThat(WakeupCodec.read("C:0190a1b2-c3d4-7e5f-8a9b-ffffffffffff")).isEqualTo(new Wakeup.Closed(RUN));
	}

	@Test
	void everyKindRoundTrips() {
		List<Wakeup> all = List.of(Wakeup.AnyNode.INSTANCE, new Wakeup.Node(NODE), new Wakeup.Run(NODE, RUN),
				new Wakeup.QueueRound(NODE, "orders:eu"), new Wakeup.TaskQueue("gpu:a100"), new Wakeup.Outputs(RUN),
				new Wakeup.Closed(RUN));
		for (Wakeup wakeup : all) {
			assertThat(WakeupCodec.read(WakeupCodec.write(wakeup))).isEqualTo(wakeup);
		}
	}

	@Test
	void textThatNamesNoWakeupIsIgnored() {
		assertThat(WakeupCodec.read(null)).isNull();
		assertThat(WakeupCodec.read("")).isNull();
		assertThat(WakeupCodec.read("X:something")).isNull();
		assertThat(WakeupCodec.read("R:not-a-node:also-not")).isNull();
		assertThat(WakeupCodec.read("O:")).isNull();
	}

}
