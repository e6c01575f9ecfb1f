package dev.durable.workflow.internal.wakeup;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batch of wake-ups: runs are named one by one, unless one node gets many, then it
 * polls once.
 */
class WakeupBatchTest {

	@Test
	void aFewRunsOfANodeAreNamedOneByOne() {
		UUID node = UUID.randomUUID();
		Set<Wakeup> pending = new LinkedHashSet<>();
		UUID run = UUID.randomUUID();
		pending.add(new Wakeup.Run(node, run));
		pending.add(new Wakeup.TaskQueue("gpu"));
		pending.add(Wakeup.AnyNode.INSTANCE);
		assertThat(WakeupBatch.coalesce(pending).stream().map(WakeupCodec::write))
			.containsExactly("R:" + node + ":" + run, "A:gpu", "*");
	}

	@Test
	void manyRunsOfOneNodeBecomeOneWakeupOfTheNode() {
		UUID busy = UUID.randomUUID();
		UUID quiet = UUID.randomUUID();
		Set<Wakeup> pending = new LinkedHashSet<>();
		for (int i = 0; i < 40; i++) {
			pending.add(new Wakeup.Run(busy, UUID.randomUUID()));
		}
		Wakeup single = new Wakeup.Run(quiet, UUID.randomUUID());
		pending.add(single);
		assertThat(WakeupBatch.coalesce(pending)).containsExactly(new Wakeup.Node(busy), single);
	}

	@Test
	void aNodeJustOverTheLimitIsWokenOnce() {
		UUID node = UUID.randomUUID();
		Set<Wakeup> pending = new LinkedHashSet<>();
		for (int i = 0; i < WakeupBatch.RUNS_PER_NODE; i++) {
			pending.add(new Wakeup.Run(node, UUID.randomUUID()));
		}
		assertThat(WakeupBatch.coalesce(pending)).hasSize(WakeupBatch.RUNS_PER_NODE);
		pending.add(new Wakeup.Run(node, UUID.randomUUID()));
		assertThat(WakeupBatch.coalesce(pending)).containsExactly(new Wakeup.Node(node));
	}

}
