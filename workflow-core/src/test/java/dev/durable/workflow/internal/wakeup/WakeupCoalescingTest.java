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
class WakeupCoalescingTest {

	@Test
	void aFewRunsOfANodeAreNamedOneByOne() {
		UUID node = UUID.randomUUID();
		Set<String> pending = new LinkedHashSet<>();
		UUID run = UUID.randomUUID();
		pending.add("R:" + node + ":" + run);
		pending.add("A:gpu");
		pending.add(WakeupChannel.ANY_NODE);
		assertThat(WakeupChannel.coalesce(pending)).containsExactly("R:" + node + ":" + run, "A:gpu", "*");
	}

	@Test
	void manyRunsOfOneNodeBecomeOneWakeupOfTheNode() {
		UUID busy = UUID.randomUUID();
		UUID quiet = UUID.randomUUID();
		Set<String> pending = new LinkedHashSet<>();
		for (int i = 0; i < 40; i++) {
			pending.add("R:" + busy + ":" + UUID.randomUUID());
		}
		String single = "R:" + quiet + ":" + UUID.randomUUID();
		pending.add(single);
		assertThat(WakeupChannel.coalesce(pending)).containsExactly(busy.toString(), single);
	}

}
