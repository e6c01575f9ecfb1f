package dev.durable.workflow.internal.schedule;

import java.lang.reflect.Type;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.client.InvalidWorkflowIdException;
import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleActionResult;
import dev.durable.workflow.client.schedule.ScheduleAlreadyExistsException;
import dev.durable.workflow.client.schedule.ScheduleClient;
import dev.durable.workflow.client.schedule.ScheduleDescription;
import dev.durable.workflow.client.schedule.ScheduleNotFoundException;
import dev.durable.workflow.client.schedule.ScheduleOverlapPolicy;
import dev.durable.workflow.client.schedule.ScheduleSummary;
import dev.durable.workflow.internal.client.RunStarter;
import dev.durable.workflow.internal.client.WorkflowIds;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.support.Payloads;

/**
 * The schedule client: validates, writes schedule rows, and steps a schedule for triggers
 * and backfills.
 */
public final class ScheduleClientImpl implements ScheduleClient {

	/** Next times shown by describe. */
	private static final int NEXT_TIMES = 5;

	/** Spec times one backfill may cover. */
	private static final int MAX_BACKFILL = 1000;

	/** Room left in a workflow id for "-" and the nominal time. */
	private static final int WORKFLOW_ID_SUFFIX = 32;

	private final String namespace;

	private final Clock clock;

	private final TransactionTemplate tx;

	private final Payloads payloads;

	private final WorkflowRegistry workflows;

	private final RunStarter starter;

	private final ScheduleRepository repository;

	private final ScheduleFirer firer;

	private final ScheduleLoop loop;

	public ScheduleClientImpl(String namespace, Clock clock, TransactionTemplate tx, Payloads payloads,
			WorkflowRegistry workflows, RunStarter starter, ScheduleRepository repository, ScheduleFirer firer,
			ScheduleLoop loop) {
		this.namespace = namespace;
		this.clock = clock;
		this.tx = tx;
		this.payloads = payloads;
		this.workflows = workflows;
		this.starter = starter;
		this.repository = repository;
		this.firer = firer;
		this.loop = loop;
	}

	private String namespace() {
		return this.namespace;
	}

	@Override
	public void create(String scheduleId, Schedule schedule) {
		checkScheduleId(scheduleId);
		Objects.requireNonNull(schedule, "schedule");
		Instant now = this.clock.instant();
		StoredAction action = store(scheduleId, schedule.action());
		ScheduleRow row = new ScheduleRow(namespace(), scheduleId, schedule.spec(),
				new SchedulePolicies(schedule.overlapPolicy(), schedule.catchupWindow()), action,
				new ScheduleState(now, List.of(), 0, 0, 0, schedule.note(), schedule.remainingActions()),
				schedule.paused(), null, 0, now, now);
		row = row.withState(row.state(), nextDue(row, now));
		if (!this.repository.insert(row)) {
			throw new ScheduleAlreadyExistsException("Schedule '" + scheduleId + "' already exists", scheduleId);
		}
		wakeLoop();
	}

	@Override
	public ScheduleDescription describe(String scheduleId) {
		ScheduleRow row = find(scheduleId);
		ScheduleTimes times = row.times();
		List<Instant> next = new ArrayList<>();
		Instant from = row.paused() ? later(row.state().cursor(), this.clock.instant()) : row.state().cursor();
		// limited actions used up: nothing is coming (an update that gives more counts
		// anew)
		Instant first = row.state().exhausted() ? null : times.nextNominal(from);
		for (Instant t = first; t != null && next.size() < NEXT_TIMES; t = times.nextNominal(t)) {
			next.add(times.due(t));
		}
		ScheduleState state = row.state();
		return new ScheduleDescription(scheduleId, schedule(row), next,
				this.repository.recent(namespace(), scheduleId, ScheduleFirer.KEEP_ACTIONS),
				this.repository.running(namespace(), scheduleId), state.actions(), state.skipped(), state.missed(),
				state.buffer().size(), row.createdAt(), row.updatedAt());
	}

	@Override
	public List<ScheduleSummary> list() {
		return this.repository.list(namespace())
			.stream()
			.map((row) -> new ScheduleSummary(row.scheduleId(), row.action().workflowType(), row.spec(), row.paused(),
					row.nextRunAt()))
			.toList();
	}

	@Override
	public void pause(String scheduleId, String note) {
		change(scheduleId, (current) -> current.withPaused(true, note));
	}

	@Override
	public void unpause(String scheduleId, String note) {
		change(scheduleId, (current) -> current.withPaused(false, note));
	}

	@Override
	public void update(String scheduleId, UnaryOperator<Schedule> change) {
		Objects.requireNonNull(change, "change");
		change(scheduleId, change);
	}

	/**
	 * Replaces spec, action, policies and pause state, compare-and-set on the version
	 * read. The spec times are counted anew from now: nothing is caught up across a
	 * change.
	 */
	private void change(String scheduleId, UnaryOperator<Schedule> change) {
		checkScheduleId(scheduleId);
		for (int attempt = 0;; attempt++) {
			ScheduleRow current = find(scheduleId);
			Schedule changed = change.apply(schedule(current));
			Objects.requireNonNull(changed, "the changed schedule");
			StoredAction action = store(scheduleId, changed.action());
			Instant now = this.clock.instant();
			ScheduleState state = current.state();
			ScheduleRow row = new ScheduleRow(current.namespace(), scheduleId, changed.spec(),
					new SchedulePolicies(changed.overlapPolicy(), changed.catchupWindow()), action,
					new ScheduleState(now, state.buffer(), state.actions(), state.skipped(), state.missed(),
							changed.note(), changed.remainingActions()),
					changed.paused(), null, current.version(), current.createdAt(), now);
			row = row.withState(row.state(), nextDue(row, now));
			if (this.repository.replace(row)) {
				wakeLoop();
				return;
			}
			if (attempt == 10) {
				throw new IllegalStateException("Schedule '" + scheduleId + "' keeps changing; try again");
			}
		}
	}

	@Override
	public ScheduleActionResult trigger(String scheduleId, ScheduleOverlapPolicy overlapPolicy) {
		checkScheduleId(scheduleId);
		List<ScheduleActionResult> results = step(scheduleId,
				List.of(ScheduleFirer.Firing.triggered(this.clock.instant())), overlapPolicy);
		return results.get(results.size() - 1);
	}

	@Override
	public List<ScheduleActionResult> backfill(String scheduleId, Instant start, Instant end,
			ScheduleOverlapPolicy overlapPolicy) {
		checkScheduleId(scheduleId);
		Objects.requireNonNull(start, "start");
		Objects.requireNonNull(end, "end");
		if (!start.isBefore(end)) {
			throw new IllegalArgumentException("A backfill needs start " + start + " before end " + end);
		}
		ScheduleTimes times = find(scheduleId).times();
		List<ScheduleFirer.Firing> firings = new ArrayList<>();
		for (Instant t = times.nextNominal(start.minusNanos(1)); t != null
				&& t.isBefore(end); t = times.nextNominal(t)) {
			if (firings.size() == MAX_BACKFILL) {
				throw new IllegalArgumentException(
						"A backfill covers at most " + MAX_BACKFILL + " times; split [" + start + ", " + end + ")");
			}
			firings.add(ScheduleFirer.Firing.backfilled(t));
		}
		return firings.isEmpty() ? List.of() : step(scheduleId, firings, overlapPolicy);
	}

	/** A step with extra firings, on the locked row (it waits for a running step). */
	private List<ScheduleActionResult> step(String scheduleId, List<ScheduleFirer.Firing> firings,
			ScheduleOverlapPolicy overlapPolicy) {
		List<ScheduleActionResult> results = this.firer.fire(
				() -> Optional
					.of(this.repository.lock(namespace(), scheduleId).orElseThrow(() -> notFound(scheduleId))),
				false, firings, overlapPolicy);
		if (results == null) {
			throw new IllegalStateException("Schedule '" + scheduleId + "' changed during the step; try again");
		}
		return results;
	}

	@Override
	public void delete(String scheduleId) {
		checkScheduleId(scheduleId);
		Boolean deleted = this.tx.execute((status) -> this.repository.delete(namespace(), scheduleId));
		if (!Boolean.TRUE.equals(deleted)) {
			throw notFound(scheduleId);
		}
	}

	private ScheduleRow find(String scheduleId) {
		checkScheduleId(scheduleId);
		return this.repository.find(namespace(), scheduleId).orElseThrow(() -> notFound(scheduleId));
	}

	private ScheduleNotFoundException notFound(String scheduleId) {
		return new ScheduleNotFoundException("No schedule '" + scheduleId + "' in namespace '" + namespace() + "'",
				scheduleId);
	}

	private static void checkScheduleId(String scheduleId) {
		try {
			WorkflowIds.check(scheduleId);
		}
		catch (InvalidWorkflowIdException ex) {
			throw new IllegalArgumentException(
					"Invalid schedule id '" + scheduleId + "': use 1-255 letters, digits and ._:@-", ex);
		}
	}

	/** Validates an action and encodes its input with the engine's payload converter. */
	private StoredAction store(String scheduleId, ScheduleAction action) {
		Objects.requireNonNull(action, "action");
		this.starter.checkStartable(action.workflowType());
		String prefix = (action.workflowIdPrefix() != null) ? action.workflowIdPrefix() : scheduleId;
		try {
			WorkflowIds.check(prefix);
		}
		catch (InvalidWorkflowIdException ex) {
			throw new IllegalArgumentException("Invalid workflow id prefix '" + prefix + "': " + ex.getMessage(), ex);
		}
		if (prefix.length() > 255 - WORKFLOW_ID_SUFFIX) {
			throw new IllegalArgumentException("The workflow id prefix '" + prefix + "' is too long: at most "
					+ (255 - WORKFLOW_ID_SUFFIX) + " characters leave room for the firing time");
		}
		WorkflowDefinition definition = this.workflows.find(action.workflowType());
		if (definition != null) {
			definition.checkInput(action.input());
		}
		byte[] input = this.payloads.encode(action.input(), inputType(action.workflowType()),
				"the input of schedule " + scheduleId);
		return new StoredAction(action.workflowType(), input, prefix, action.taskQueue(), action.executionTimeout(),
				action.runTimeout(), action.retryPolicy());
	}

	private Type inputType(String workflowType) {
		WorkflowDefinition definition = this.workflows.find(workflowType);
		return (definition != null && definition.inputType() != null) ? definition.inputType() : Object.class;
	}

	private Schedule schedule(ScheduleRow row) {
		StoredAction stored = row.action();
		Object input = (stored.input() != null) ? this.payloads.decode(stored.input(), inputType(stored.workflowType()),
				"the input of schedule " + row.scheduleId()) : null;
		ScheduleAction action = new ScheduleAction(stored.workflowType(), input, stored.workflowIdPrefix(),
				stored.taskQueue(), stored.executionTimeout(), stored.runTimeout(), stored.retryPolicy());
		return new Schedule(row.spec(), action, row.policies().overlapPolicy(), row.policies().catchupWindow(),
				row.paused(), row.state().note(), row.state().remaining());
	}

	private static Instant nextDue(ScheduleRow row, Instant now) {
		if (row.state().exhausted()) {
			return null;
		}
		ScheduleTimes times = row.times();
		Instant next = times.nextNominal(now);
		return (next != null) ? times.due(next) : null;
	}

	private static Instant later(Instant a, Instant b) {
		return a.isAfter(b) ? a : b;
	}

	private void wakeLoop() {
		this.loop.wakeUp();
	}

}
