package dev.durable.workflow.internal.queue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.internal.queue.AdmissionPlan.Candidate;
import dev.durable.workflow.internal.queue.AdmissionPlan.Limit;
import dev.durable.workflow.internal.queue.AdmissionPlan.Occupancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The limit arithmetic of an admission round, without a database. */
class AdmissionPlanTest {

	private static final QueueDefinition UNLIMITED = QueueDefinition.named("q");

	private static List<Candidate<String>> candidates(String... keyAndPartition) {
		return java.util.Arrays.stream(keyAndPartition).map((spec) -> {
			String[] parts = spec.split("@");
			return new Candidate<>(parts[0], (parts.length > 1) ? parts[1] : null);
		}).toList();
	}

	private static List<String> keys(List<Candidate<String>> admitted) {
		return admitted.stream().map(Candidate::key).toList();
	}

	@Test
	void noLimitsAdmitsEveryCandidateUpToTheRoundsMaximum() {
		AdmissionPlan plan = new AdmissionPlan(UNLIMITED, Occupancy.NONE, 0, 3);
		assertThat(keys(plan.take(candidates("a", "b", "c", "d")))).containsExactly("a", "b", "c");
		assertThat(plan.full()).isEqualTo(Limit.BATCH);
		assertThat(plan.room()).isZero();
	}

	@Test
	void concurrencyCountsWhatRunsAlready() {
		AdmissionPlan plan = new AdmissionPlan(UNLIMITED.withConcurrency(3), new Occupancy(2, 0, Map.of()), 0, 64);
		assertThat(keys(plan.take(candidates("a", "b")))).containsExactly("a");
		assertThat(plan.full()).isEqualTo(Limit.CONCURRENCY);
		assertThat(plan.take(candidates("c"))).isEmpty();
	}

	@Test
	void moreRunningThanTheLimitAfterALoweredLimitLeavesNoRoomNotNegativeRoom() {
		AdmissionPlan plan = new AdmissionPlan(UNLIMITED.withConcurrency(2), new Occupancy(5, 5, Map.of()), 0, 64);
		assertThat(plan.room()).isZero();
		assertThat(plan.take(candidates("a"))).isEmpty();
	}

	@Test
	void perNodeConcurrencyIsReportedAsTheNodesLimitWhileTheClusterHasRoom() {
		QueueDefinition limits = UNLIMITED.withConcurrency(10).withPerNodeConcurrency(2);
		AdmissionPlan plan = new AdmissionPlan(limits, new Occupancy(4, 1, Map.of()), 0, 64);
		assertThat(keys(plan.take(candidates("a", "b", "c")))).containsExactly("a");
		assertThat(plan.full()).isEqualTo(Limit.NODE);
	}

	@Test
	void theClusterLimitIsReportedBeforeTheNodes() {
		QueueDefinition limits = UNLIMITED.withConcurrency(2).withPerNodeConcurrency(2);
		AdmissionPlan plan = new AdmissionPlan(limits, new Occupancy(2, 2, Map.of()), 0, 64);
		assertThat(plan.full()).isEqualTo(Limit.CONCURRENCY);
	}

	@Test
	void theRateLimitCountsTheStartsInsideTheWindow() {
		QueueDefinition limits = UNLIMITED.withRateLimit(5, Duration.ofSeconds(1));
		AdmissionPlan plan = new AdmissionPlan(limits, new Occupancy(100, 100, Map.of()), 3, 64);
		assertThat(keys(plan.take(candidates("a", "b", "c")))).containsExactly("a", "b");
		assertThat(plan.full()).isEqualTo(Limit.RATE);
	}

	@Test
	void aFullPartitionIsSkippedNotWaitedFor() {
		QueueDefinition limits = UNLIMITED.withPartitionConcurrency(1);
		AdmissionPlan plan = new AdmissionPlan(limits, new Occupancy(1, 1, Map.of("x", 1L)), 0, 64);
		assertThat(plan.fullPartitions()).containsExactly("x");
		assertThat(keys(plan.take(candidates("x1@x", "y1@y", "x2@x", "y2@y", "z1@z", "n1", "n2"))))
			.containsExactly("y1", "z1", "n1", "n2");
		assertThat(plan.fullPartitions()).containsExactlyInAnyOrder("x", "y", "z");
		assertThat(plan.full()).isEqualTo(Limit.NONE);
	}

	@Test
	void partitionsAndTheQueueWideLimitHoldTogether() {
		QueueDefinition limits = UNLIMITED.withConcurrency(3).withPartitionConcurrency(2);
		AdmissionPlan plan = new AdmissionPlan(limits, Occupancy.NONE, 0, 64);
		assertThat(keys(plan.take(candidates("a1@a", "a2@a", "a3@a", "b1@b", "b2@b")))).containsExactly("a1", "a2",
				"b1");
		assertThat(plan.full()).isEqualTo(Limit.CONCURRENCY);
	}

	@Test
	void pagesOfOneRoundShareTheCounts() {
		QueueDefinition limits = UNLIMITED.withConcurrency(3).withPartitionConcurrency(1);
		AdmissionPlan plan = new AdmissionPlan(limits, Occupancy.NONE, 0, 64);
		assertThat(keys(plan.take(candidates("a1@a", "b1@b")))).containsExactly("a1", "b1");
		assertThat(keys(plan.take(candidates("a2@a", "c1@c", "d1@d")))).containsExactly("c1");
	}

	@Test
	void occupanciesOfSeveralKindsAddUp() {
		Occupancy workflows = new Occupancy(2, 1, Map.of("a", 2L));
		Occupancy activities = new Occupancy(3, 0, Map.of("a", 1L, "b", 3L));
		assertThat(workflows.plus(activities)).isEqualTo(new Occupancy(5, 1, Map.of("a", 3L, "b", 3L)));
	}

	@Test
	void aNegativeMaximumIsRefused() {
		assertThatThrownBy(() -> new AdmissionPlan(UNLIMITED, Occupancy.NONE, 0, -1))
			.isInstanceOf(IllegalArgumentException.class);
	}

}
