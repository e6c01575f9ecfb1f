package dev.durable.workflow.internal.queue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.internal.store.Sql;

/**
 * One admission round of a queue, inside the caller's transaction: it locks the queue's
 * row ({@code SELECT ... FOR UPDATE}), which serializes the rounds of every node and kind
 * of item on that queue so its limits hold exactly; adds up what holds its slots (every
 * {@link QueueOccupancy} it was given: the kinds share the limits); counts the starts
 * inside the rate window (pruning older ones); lets an {@link AdmissionPlan} pick from
 * the source's candidates; has the source record the admission; and records the starts
 * for the rate window. With an admission timeout, the source first closes what waited
 * longer than it.
 *
 * <p>
 * Contract for callers (the workflow dispatcher, the activity claim): call {@link #admit}
 * inside a transaction and do nothing slow after it in that transaction (the row lock
 * holds every other round of the queue back until commit); hand the admitted items on
 * only after the commit; every time comes from the caller's {@code now}, the engine
 * clock, never from SQL's {@code now()}: the engine clock is the database's (corrected by
 * its measured offset) or a test's settable clock, and the rate window's starts, written
 * by every node, are all on it.
 */
public final class QueueAdmission {

	/** Candidates read at a time. */
	private static final int PAGE = 100;

	/**
	 * Pages read in one round at most, so the queue's row is not held for long (the round
	 * reports {@code BATCH}).
	 */
	private static final int MAX_PAGES = 20;

	private static final String LOCK = "SELECT " + QueueRepository.COLUMNS
			+ " FROM #.queue WHERE namespace = ? AND name = ? FOR UPDATE";

	private static final String PRUNE_WINDOW = "DELETE FROM #.queue_start WHERE namespace = ? AND queue = ?"
			+ " AND started_at <= ?";

	private static final String COUNT_WINDOW = "SELECT count(*), min(started_at) FROM #.queue_start"
			+ " WHERE namespace = ? AND queue = ? AND started_at > ?";

	private static final String RECORD_STARTS = "INSERT INTO #.queue_start (namespace, queue, started_at)"
			+ " SELECT ?, ?, ? FROM generate_series(1, ?)";

	private final JdbcTemplate jdbc;

	private final String schema;

	private final List<QueueOccupancy> occupancies;

	private final FairPasses passes;

	/**
	 * @param occupancies every kind of item that holds slots of a queue (workflow runs,
	 * activity attempts): a round counts them all, whichever source it admits from
	 */
	public QueueAdmission(JdbcTemplate jdbc, String schema, List<QueueOccupancy> occupancies) {
		this.jdbc = jdbc;
		this.schema = schema;
		this.occupancies = List.copyOf(occupancies);
		this.passes = new FairPasses(jdbc, schema);
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * What a round admitted.
	 *
	 * @param admitted what the source admitted, to hand on after the commit
	 * @param heldBy what stopped the round ({@link AdmissionPlan.Limit#NONE}: the
	 * candidates ran out; {@code BATCH}: more may be admitted at once by another round)
	 * @param rateOpensAt when held by the rate limit: when the oldest start leaves the
	 * window (engine clock), else {@code null}
	 * @param afterCommit what the source asks to be done once the round committed (the
	 * items it closed by the admission timeout: whom to tell)
	 * @param <A> what the source hands on
	 */
	public record Result<A>(List<A> admitted, AdmissionPlan.Limit heldBy, @Nullable Instant rateOpensAt,
			List<Runnable> afterCommit) {

		/** Runs what is to be done after the commit. */
		public void committed() {
			this.afterCommit.forEach(Runnable::run);
		}

	}

	/**
	 * Admits from the queue what its limits let in, in the caller's transaction (see the
	 * class comment).
	 * @param node the admitting node (per-node concurrency counts its items)
	 * @param now the engine clock's time: the admission time and the end of the rate
	 * window
	 * @param max the most this round admits
	 * @return the round's outcome, or empty when no node declared the queue (nothing was
	 * done)
	 */
	public <K, A> Optional<Result<A>> admit(String namespace, String queue, UUID node, Instant now, int max,
			QueueSource<K, A> source) {
		Optional<QueueDefinition> locked = lock(namespace, queue);
		if (locked.isEmpty()) {
			return Optional.empty();
		}
		QueueDefinition limits = locked.get();
		// work that waited too long closes before anything is admitted: it must not run
		// late
		QueueSource.Expired expired = (limits.admissionTimeout() != null)
				? source.expire(namespace, limits, now.minus(limits.admissionTimeout()), now)
				: QueueSource.Expired.NONE;
		List<Runnable> afterCommit = expired.afterCommit();
		if (expired.more()) {
			return Optional.of(new Result<>(List.of(), AdmissionPlan.Limit.BATCH, null, afterCommit));
		}
		Instant windowStart = now.minus(limits.ratePeriod());
		long started = 0;
		Instant oldestStart = null;
		if (limits.rateLimit() > 0) {
			this.jdbc.update(q(PRUNE_WINDOW), namespace, queue, Sql.ts(windowStart));
			Window window = this.jdbc.queryForObject(q(COUNT_WINDOW),
					(rs, n) -> new Window(rs.getLong(1), QueueRepository.instant(rs.getTimestamp(2))), namespace, queue,
					Sql.ts(windowStart));
			started = window.count();
			oldestStart = window.oldest();
		}
		AdmissionPlan.Occupancy occupancy = AdmissionPlan.Occupancy.NONE;
		for (QueueOccupancy kind : this.occupancies) {
			occupancy = occupancy.plus(kind.occupancy(namespace, queue, node));
		}
		AdmissionPlan plan = new AdmissionPlan(limits, occupancy, started, max);
		List<AdmissionPlan.Candidate<K>> chosen = new ArrayList<>();
		Object from = null;
		boolean pagesLeft = true;
		for (int page = 0; page < MAX_PAGES && plan.room() > 0 && pagesLeft; page++) {
			QueueSource.Page<K> candidates = source.candidates(namespace, limits, now, plan.fullPartitions(), from,
					PAGE);
			chosen.addAll(plan.take(candidates.candidates()));
			from = candidates.next();
			pagesLeft = from != null;
		}
		List<A> admitted = chosen.isEmpty() ? List.of() : source.admit(namespace, queue, node, now, chosen);
		if (limits.fair() && !chosen.isEmpty()) {
			this.passes.admitted(namespace, limits, chosen);
		}
		if (!chosen.isEmpty() && limits.rateLimit() > 0) {
			// every chosen candidate used a start of the window, even one the source lost
			// to a race
			this.jdbc.update(q(RECORD_STARTS), namespace, queue, Sql.ts(now), chosen.size());
		}
		AdmissionPlan.Limit heldBy = plan.full();
		if (heldBy == AdmissionPlan.Limit.NONE && pagesLeft && plan.room() > 0) {
			heldBy = AdmissionPlan.Limit.BATCH; // pages left unread: another round goes
												// on
		}
		Instant rateOpensAt = null;
		if (heldBy == AdmissionPlan.Limit.RATE) {
			rateOpensAt = ((oldestStart != null) ? oldestStart : now).plus(limits.ratePeriod());
		}
		return Optional.of(new Result<>(admitted, heldBy, rateOpensAt, afterCommit));
	}

	private record Window(long count, @Nullable Instant oldest) {
	}

	private Optional<QueueDefinition> lock(String namespace, String queue) {
		return this.jdbc.query(q(LOCK), (rs, n) -> QueueRepository.definition(rs), namespace, queue)
			.stream()
			.findFirst();
	}

}
