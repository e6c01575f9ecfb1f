package dev.durable.workflow.internal.schedule;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.schedule.ScheduleActionResult;
import dev.durable.workflow.client.schedule.ScheduleActionResult.Origin;
import dev.durable.workflow.client.schedule.ScheduleActionResult.Outcome;
import dev.durable.workflow.client.schedule.ScheduleOverlapPolicy;
import dev.durable.workflow.failure.WorkflowException;
import dev.durable.workflow.internal.client.RunStarter;
import dev.durable.workflow.internal.store.InboxDelivery;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.worker.ResultWaiters;
import dev.durable.workflow.internal.worker.RunWaker;

/**
 * One step of one schedule, in one transaction: compare-and-set on the row's version,
 * then the firings due (spec times up to now, a trigger, a backfill), each claimed by its
 * key in {@code schedule_action} and started through the client's start code in a
 * savepoint, then the new state and the pruning of old records. Wake-ups of started or
 * stopped runs happen after the commit. A step that loses a race rolls back whole.
 */
public final class ScheduleFirer {

	private static final Logger log = LoggerFactory.getLogger(ScheduleFirer.class);

	/** Records kept per schedule for describe. */
	static final int KEEP_ACTIONS = 10;

	/** Spec times fired per step; the rest wait for the next step (the row stays due). */
	private static final int MAX_FIRINGS = 100;

	/** Missed times counted one by one after downtime; past this the cursor jumps. */
	private static final int MAX_MISSED_COUNTED = 10_000;

	private final Clock clock;

	private final TransactionTemplate tx;

	private final RunRepository runs;

	private final RunWaker waker;

	private final ResultWaiters waiters;

	private final RunStarter starter;

	private final ScheduleRepository repository;

	public ScheduleFirer(Clock clock, TransactionTemplate tx, RunRepository runs, RunWaker waker, ResultWaiters waiters,
			RunStarter starter, ScheduleRepository repository) {
		this.clock = clock;
		this.tx = tx;
		this.runs = runs;
		this.waker = waker;
		this.waiters = waiters;
		this.starter = starter;
		this.repository = repository;
	}

	/**
	 * A firing to process.
	 *
	 * @param key unique per schedule: origin and nominal time, or a random id for
	 * triggers
	 * @param nominal the nominal time
	 * @param origin where it came from
	 */
	record Firing(String key, Instant nominal, Origin origin) {

		static Firing scheduled(Instant nominal) {
			return new Firing("S:" + nominal, nominal, Origin.SCHEDULED);
		}

		static Firing backfilled(Instant nominal) {
			return new Firing("B:" + nominal, nominal, Origin.BACKFILLED);
		}

		static Firing triggered(Instant now) {
			return new Firing("T:" + UUID.randomUUID(), now, Origin.TRIGGERED);
		}

	}

	/** Rolls back a step whose row or firing another step processed first. */
	private static final class LostRace extends RuntimeException {

		LostRace(String message) {
			super(message, null, false, false);
		}

	}

	/**
	 * Runs a step in its own transaction.
	 * @param read reads the row inside the transaction (locked, or a snapshot); empty:
	 * nothing to do
	 * @param scheduled whether to fire the spec times due by now
	 * @param extra triggered or backfilled firings
	 * @param override the overlap policy of the extra firings, or {@code null}
	 * @return what came of the firings, or {@code null} when there was nothing to do or
	 * the step lost a race
	 */
	List<ScheduleActionResult> fire(Supplier<Optional<ScheduleRow>> read, boolean scheduled, List<Firing> extra,
			ScheduleOverlapPolicy override) {
		Instant now = this.clock.instant();
		Step step;
		try {
			step = this.tx.execute((status) -> {
				Optional<ScheduleRow> row = read.get();
				if (row.isEmpty()) {
					return null;
				}
				Step s = new Step(row.get(), now, status);
				s.run(scheduled, extra, override);
				return s;
			});
		}
		catch (LostRace ex) {
			log.debug("Schedule step rolled back: {}", ex.getMessage());
			return null;
		}
		if (step == null) {
			return null;
		}
		step.afterCommit.forEach((action) -> {
			try {
				action.run();
			}
			catch (RuntimeException ex) {
				// the runs are committed; polling picks them up
				log.warn("Waking a run started by schedule {} failed: {}", step.row.scheduleId(), ex.toString());
			}
		});
		return step.results;
	}

	/** The mutable work of one step. */
	private final class Step {

		private final ScheduleRow row;

		private final Instant now;

		private final TransactionStatus status;

		private final Set<String> running;

		private final List<ScheduleState.Buffered> buffer;

		private long actions;

		private long skipped;

		private long missed;

		/** Limited actions left for scheduled firings, or {@code null}: unlimited. */
		private Long remaining;

		private final List<ScheduleActionResult> results = new ArrayList<>();

		private final List<Runnable> afterCommit = new ArrayList<>();

		Step(ScheduleRow row, Instant now, TransactionStatus status) {
			this.row = row;
			this.now = now;
			this.status = status;
			ScheduleState state = row.state();
			this.buffer = new ArrayList<>(state.buffer());
			this.actions = state.actions();
			this.skipped = state.skipped();
			this.missed = state.missed();
			this.remaining = state.remaining();
			this.running = new LinkedHashSet<>(
					ScheduleFirer.this.repository.running(row.namespace(), row.scheduleId()));
		}

		void run(boolean scheduled, List<Firing> extra, ScheduleOverlapPolicy override) {
			if (!ScheduleFirer.this.repository.bumpVersion(this.row)) {
				throw new LostRace(
						"schedule " + this.row.scheduleId() + " changed since version " + this.row.version());
			}
			drainBuffer();
			Instant cursor = this.row.state().cursor();
			Instant nextRunAt = this.row.nextRunAt();
			if (scheduled && !this.row.paused()) {
				ScheduleTimes times = this.row.times();
				Instant late = this.now.minus(this.row.policies().catchupWindow());
				Instant t = times.nextNominal(cursor);
				int fired = 0;
				int counted = 0;
				while (t != null && !times.due(t).isAfter(this.now) && fired < MAX_FIRINGS && !exhausted()) {
					if (times.due(t).isBefore(late)) {
						this.missed++;
						if (++counted == MAX_MISSED_COUNTED) {
							// long downtime: jump to the times still within the window
							t = times.nextNominal(late.minus(times.maxJitter()));
							continue;
						}
					}
					else {
						process(Firing.scheduled(t), this.row.policies().overlapPolicy());
						fired++;
					}
					cursor = t;
					t = times.nextNominal(t);
				}
				// used up: no next time until an update gives more actions (and counts
				// times anew)
				nextRunAt = (t != null && !exhausted()) ? times.due(t) : null;
			}
			for (Firing firing : extra) {
				process(firing, (override != null) ? override : this.row.policies().overlapPolicy());
			}
			drainBuffer();
			if (exhausted()) {
				nextRunAt = null; // a buffered firing may have used the last action
			}
			ScheduleState state = new ScheduleState(cursor, this.buffer, this.actions, this.skipped, this.missed,
					this.row.state().note(), this.remaining);
			ScheduleFirer.this.repository.writeState(this.row.withState(state, nextRunAt));
			ScheduleFirer.this.repository.prune(this.row.namespace(), this.row.scheduleId(), KEEP_ACTIONS);
		}

		/**
		 * Starts buffered firings while none of the schedule's workflows runs (not while
		 * paused).
		 */
		private void drainBuffer() {
			while (!this.row.paused() && !this.buffer.isEmpty() && this.running.isEmpty()) {
				ScheduleState.Buffered next = this.buffer.remove(0);
				start(new Firing(next.key(), next.nominal(), Origin.valueOf(next.origin())));
			}
		}

		private void process(Firing firing, ScheduleOverlapPolicy policy) {
			if (!ScheduleFirer.this.repository.claim(this.row, firing.key(), firing.origin().name(), firing.nominal(),
					this.now)) {
				if (firing.origin() == Origin.SCHEDULED) {
					throw new LostRace("time " + firing.nominal() + " of schedule " + this.row.scheduleId()
							+ " was fired by another step");
				}
				return; // backfilled before: a backfill is idempotent
			}
			if (this.running.isEmpty() || policy == ScheduleOverlapPolicy.ALLOW_ALL) {
				start(firing);
				return;
			}
			switch (policy) {
				case SKIP -> skip(firing, "overlap: " + String.join(", ", this.running) + " running");
				case BUFFER_ONE -> {
					if (this.buffer.isEmpty()) {
						buffer(firing);
					}
					else {
						skip(firing, "overlap: a firing is already buffered");
					}
				}
				case BUFFER_ALL -> buffer(firing);
				case CANCEL_OTHER -> {
					if (this.buffer.isEmpty()) {
						cancelRunning();
					}
					// only the latest firing waits for the canceled run
					for (ScheduleState.Buffered superseded : this.buffer) {
						record(superseded.key(), superseded.nominal(), Origin.valueOf(superseded.origin()),
								Outcome.SKIPPED, null, "superseded by the firing of " + firing.nominal());
						this.skipped++;
					}
					this.buffer.clear();
					buffer(firing);
				}
				case TERMINATE_OTHER -> {
					terminateRunning();
					start(firing);
				}
				default -> start(firing);
			}
		}

		private boolean exhausted() {
			return this.remaining != null && this.remaining <= 0;
		}

		private void start(Firing firing) {
			boolean limited = firing.origin() == Origin.SCHEDULED && this.remaining != null;
			if (limited && this.remaining <= 0) {
				// a scheduled firing buffered before the last action was used; triggers
				// and
				// backfills are explicit requests and never limited (as in Temporal)
				skip(firing, "no remaining actions");
				return;
			}
			StoredAction action = this.row.action();
			String workflowId = action.workflowId(firing.nominal());
			StartOptions options = StartOptions.builder()
				.workflowId(workflowId)
				.taskQueue(action.taskQueue())
				.executionTimeout(action.executionTimeout())
				.runTimeout(action.runTimeout())
				.retryPolicy(action.retryPolicy())
				.build();
			Object savepoint = this.status.createSavepoint();
			RunStarter.StartInTransaction started;
			try {
				started = ScheduleFirer.this.starter.startInTransaction(action.workflowType(), action.input(), options);
				this.status.releaseSavepoint(savepoint);
			}
			catch (WorkflowException | DuplicateKeyException ex) {
				// an id in use or a refused start is an outcome of this firing, not an
				// error to retry
				this.status.rollbackToSavepoint(savepoint);
				skip(firing, "not started: " + ex.getMessage());
				return;
			}
			this.actions++;
			if (limited) {
				// in the step's transaction, with the start: committed together or not at
				// all
				this.remaining--;
			}
			this.running.add(workflowId);
			this.afterCommit.add(started.afterCommit());
			this.results
				.add(record(firing.key(), firing.nominal(), firing.origin(), Outcome.STARTED, started.runId(), null));
		}

		private void skip(Firing firing, String reason) {
			this.skipped++;
			this.results.add(record(firing.key(), firing.nominal(), firing.origin(), Outcome.SKIPPED, null, reason));
		}

		private void buffer(Firing firing) {
			this.buffer.add(new ScheduleState.Buffered(firing.key(), firing.nominal(), firing.origin().name()));
			this.results.add(record(firing.key(), firing.nominal(), firing.origin(), Outcome.BUFFERED, null,
					"waiting for " + String.join(", ", this.running) + " to close"));
		}

		private ScheduleActionResult record(String key, Instant nominal, Origin origin, Outcome outcome, UUID runId,
				String reason) {
			String workflowId = this.row.action().workflowId(nominal);
			ScheduleFirer.this.repository.record(this.row, key, outcome.name(), workflowId, runId, reason, this.now);
			return new ScheduleActionResult(nominal, this.now, origin, outcome, workflowId, runId, reason);
		}

		private void cancelRunning() {
			byte[] reason = ("canceled by schedule " + this.row.scheduleId() + " (overlap policy CANCEL_OTHER)")
				.getBytes(StandardCharsets.UTF_8);
			for (String workflowId : this.running) {
				Optional<RunRow> open = ScheduleFirer.this.runs.lockOpen(this.row.namespace(), workflowId);
				open.ifPresent((run) -> {
					if (ScheduleFirer.this.runs.sendToInbox(run.runId(), InboxKind.CANCEL, null,
							reason) instanceof InboxDelivery.Delivered delivered) {
						this.afterCommit.add(() -> ScheduleFirer.this.waker.wake(run.runId(), delivered.owner()));
					}
				});
			}
		}

		private void terminateRunning() {
			String reason = "terminated by schedule " + this.row.scheduleId() + " (overlap policy TERMINATE_OTHER)";
			for (String workflowId : this.running) {
				Optional<RunRow> open = ScheduleFirer.this.runs.lockOpen(this.row.namespace(), workflowId);
				if (open.isEmpty()) {
					continue;
				}
				RunRow run = open.get();
				List<UUID> woken = ScheduleFirer.this.runs.terminateAndWake(run.runId(), reason, this.now);
				if (woken != null) {
					this.afterCommit.add(() -> {
						ScheduleFirer.this.waiters.closed(run.runId());
						ScheduleFirer.this.waker.wake(run.runId(), run.owner());
						woken.forEach((other) -> ScheduleFirer.this.waker.wake(other, null));
					});
				}
			}
			this.running.clear();
		}

	}

}
