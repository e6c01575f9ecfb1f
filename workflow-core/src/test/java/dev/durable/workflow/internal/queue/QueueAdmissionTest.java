package dev.durable.workflow.internal.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.internal.store.SchemaMigrator;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link QueueAdmission} as another kind of item uses it (the activity claim): its own
 * source of candidates and its own count of what holds slots, in its own transactions,
 * under the queue's row lock and rate window.
 */
class QueueAdmissionTest {

	private final String schema = TestDatabase.newSchema();

	private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

	/** Items in memory: waiting ones in order, running ones counted by the occupancy. */
	private static final class Items implements QueueSource<Integer, Integer>, QueueOccupancy {

		final ConcurrentLinkedQueue<Integer> waiting = new ConcurrentLinkedQueue<>();

		final AtomicLong running = new AtomicLong();

		final AtomicLong mostRunning = new AtomicLong();

		Items(int count) {
			for (int i = 0; i < count; i++) {
				this.waiting.add(i);
			}
		}

		@Override
		public AdmissionPlan.Occupancy occupancy(String namespace, String queue, UUID node) {
			return new AdmissionPlan.Occupancy(this.running.get(), 0, Map.of());
		}

		@Override
		public Page<Integer> candidates(String namespace, QueueDefinition queue, Instant now,
				Set<String> fullPartitions, @Nullable Object from, int limit) {
			return new Page<>(
					this.waiting.stream().limit(limit).map((i) -> new AdmissionPlan.Candidate<>(i, null)).toList(),
					null);
		}

		@Override
		public List<Integer> admit(String namespace, String queue, UUID node, Instant now,
				List<AdmissionPlan.Candidate<Integer>> admitted) {
			List<Integer> keys = admitted.stream().map(AdmissionPlan.Candidate::key).toList();
			this.waiting.removeAll(keys);
			this.mostRunning.accumulateAndGet(this.running.addAndGet(keys.size()), Math::max);
			return keys;
		}

	}

	private QueueAdmission admission(Items items, QueueDefinition queue) {
		new SchemaMigrator(TestDatabase.dataSource(), this.schema).migrate();
		new QueueRepository(TestDatabase.jdbc(), this.schema).declare("default", List.of(queue), this.t0);
		return new QueueAdmission(TestDatabase.jdbc(), this.schema, List.of(items));
	}

	private final TransactionTemplate tx = new TransactionTemplate(
			new DataSourceTransactionManager(TestDatabase.dataSource()));

	private QueueAdmission.Result<Integer> round(QueueAdmission admission, Items items, Instant now) {
		return this.tx.execute((status) -> admission.admit("default", "q", UUID.randomUUID(), now, 64, items))
			.orElseThrow();
	}

	@Test
	void concurrencyAndTheRateWindowHoldForAnotherKindOfItem() {
		Items items = new Items(10);
		QueueAdmission admission = admission(items,
				QueueDefinition.named("q").withConcurrency(2).withRateLimit(3, Duration.ofSeconds(1)));
		QueueAdmission.Result<Integer> first = round(admission, items, this.t0);
		assertThat(first.admitted()).containsExactly(0, 1);
		assertThat(first.heldBy()).isEqualTo(AdmissionPlan.Limit.CONCURRENCY);
		items.running.set(0); // both finished
		QueueAdmission.Result<Integer> second = round(admission, items, this.t0.plusMillis(500));
		assertThat(second.admitted()).containsExactly(2);
		assertThat(second.heldBy()).isEqualTo(AdmissionPlan.Limit.RATE);
		assertThat(second.rateOpensAt()).isEqualTo(this.t0.plusSeconds(1));
		items.running.set(0);
		// the window slides: at t0 + 1 s the first two starts have left it, the third has
		// not
		QueueAdmission.Result<Integer> third = round(admission, items, this.t0.plusSeconds(1));
		assertThat(third.admitted()).containsExactly(3, 4);
		assertThat(third.heldBy()).isEqualTo(AdmissionPlan.Limit.CONCURRENCY);
	}

	@Test
	void aQueueNoNodeDeclaredAdmitsNothingAndIsReportedAsSuch() {
		Items items = new Items(3);
		QueueAdmission admission = admission(items, QueueDefinition.named("other"));
		Optional<QueueAdmission.Result<Integer>> result = this.tx
			.execute((status) -> admission.admit("default", "q", UUID.randomUUID(), this.t0, 64, items));
		assertThat(result).isEmpty();
		assertThat(items.waiting).hasSize(3);
	}

	@Test
	void racingRoundsOfManyNodesNeverAdmitPastTheLimit() throws Exception {
		Items items = new Items(400);
		QueueAdmission admission = admission(items, QueueDefinition.named("q").withConcurrency(3));
		CountDownLatch start = new CountDownLatch(1);
		AtomicInteger failures = new AtomicInteger();
		List<Thread> nodes = new ArrayList<>();
		for (int n = 0; n < 4; n++) {
			nodes.add(Thread.ofPlatform().start(() -> {
				try {
					start.await();
					while (!items.waiting.isEmpty()) {
						QueueAdmission.Result<Integer> result = round(admission, items, this.t0);
						// what was admitted finishes soon after, outside the round
						items.running.addAndGet(-result.admitted().size());
					}
				}
				catch (InterruptedException | RuntimeException ex) {
					failures.incrementAndGet();
				}
			}));
		}
		start.countDown();
		for (Thread node : nodes) {
			node.join(60_000);
		}
		assertThat(failures).hasValue(0);
		assertThat(items.waiting).isEmpty();
		assertThat(items.mostRunning.get()).isBetween(1L, 3L);
	}

}
