package dev.durable.workflow.internal.client;

import java.lang.reflect.Type;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.WorkflowIdReusePolicy;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowIdConflictPolicy;
import dev.durable.workflow.client.schedule.CronSchedule;
import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.engine.WorkflowInterceptor.ClientOperation;
import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.BuildAssignment;
import dev.durable.workflow.internal.store.NodeRepository;
import dev.durable.workflow.internal.store.RunChain;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.support.Attributes;
import dev.durable.workflow.internal.support.Interceptors;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.support.UuidV7;
import dev.durable.workflow.internal.worker.FirstTasks;
import dev.durable.workflow.internal.worker.LocalNode;
import dev.durable.workflow.internal.worker.ResultWaiters;
import dev.durable.workflow.internal.worker.RunWaker;
import dev.durable.workflow.internal.versioning.BuildRouter;

/**
 * Starts runs: the id, reuse and conflict policies, signal- and update-with-start, the
 * eager first task on this node, and starts inside a caller's transaction (schedules).
 * Shared by the workflow client and the schedules.
 */
public final class RunStarter {

	private final String namespace;

	private final Clock clock;

	private final WorkflowRegistry workflows;

	private final Payloads payloads;

	private final RunRepository runs;

	private final NodeRepository nodes;

	private final TransactionTemplate tx;

	private final LocalNode node;

	private final BuildRouter routing;

	private final RunWaker waker;

	private final Listeners listeners;

	private final ResultWaiters waiters;

	private final QueuedStarts queued;

	private final DecideStart decide;

	private final Interceptors interceptors;

	public RunStarter(String namespace, Clock clock, WorkflowRegistry workflows, Payloads payloads, StartStores stores,
			StartHandOff handOff, StartObservers observers) {
		this.namespace = namespace;
		this.clock = clock;
		this.workflows = workflows;
		this.payloads = payloads;
		this.runs = stores.runs();
		this.nodes = stores.nodes();
		this.tx = stores.tx();
		this.node = handOff.node();
		this.routing = handOff.routing();
		this.waker = handOff.waker();
		this.listeners = observers.listeners();
		this.waiters = observers.waiters();
		this.queued = new QueuedStarts(stores.queues(), handOff.queueWaker());
		this.decide = new DecideStart(stores.runs(), stores.dedup(), this.queued);
		this.interceptors = observers.interceptors();
	}

	/**
	 * @param closedWith the outcome when the start's own first task closed the run (a
	 * workflow of local activities): the handle answers its result from it without
	 * reading the run
	 */
	record Started(String workflowId, UUID runId, RunRepository.Outcome closedWith) {

		Started(String workflowId, UUID runId) {
			this(workflowId, runId, null);
		}

	}

	/**
	 * A message sent with a start (signal-with-start, update-with-start).
	 *
	 * @param kind SIGNAL or UPDATE
	 * @param name handler name
	 * @param payload encoded payload
	 * @param messageId update id
	 */
	record WithStart(InboxKind kind, String name, byte[] payload, String messageId) {
	}

	Started startRun(String workflowType, Type inputType, Object input, StartOptions given) {
		return startRun(workflowType, inputType, input, given, null);
	}

	/**
	 * Starts a run through the interceptors; what they put in the headers is stored with
	 * the run. A first task run eagerly, as part of the start, runs inside this client
	 * call.
	 */
	Started startRun(String workflowType, Type inputType, Object input, StartOptions given, WithStart message) {
		ClientOperation operation = (message == null) ? ClientOperation.START : (message.kind() == InboxKind.SIGNAL)
				? ClientOperation.SIGNAL_WITH_START : ClientOperation.UPDATE_WITH_START;
		return this.interceptors.client(operation, workflowType, (given != null) ? given.workflowId() : null,
				(message != null) ? message.name() : null,
				(headers) -> startRun(workflowType, inputType, input, given, message, headers));
	}

	private Started startRun(String workflowType, Type inputType, Object input, StartOptions given, WithStart message,
			Map<String, String> headers) {
		checkStartable(workflowType);
		if (given != null && given.workflowId() != null) {
			WorkflowIds.check(given.workflowId());
		}
		if (inputType == null && input != null) {
			throw new PayloadException("Workflow type '" + workflowType + "' takes no input", false, null);
		}
		byte[] payload = this.payloads.encode(input, (inputType != null) ? inputType : Object.class,
				"the input of workflow " + workflowType);
		PreparedStart start = prepare(workflowType, payload, given, message, headers);
		// not inside a caller's transaction: the start joins it, and its first task must
		// not act
		// (schedule activities) before that transaction commits
		boolean eager = start.local() && start.wakeAt() == null && message == null && start.run().memo().isEmpty()
				&& start.run().searchAttributes().isEmpty()
				&& !TransactionSynchronizationManager.isActualTransactionActive();
		boolean plain = start.options().idConflictPolicy() == WorkflowIdConflictPolicy.FAIL
				&& start.options().idReusePolicy() == WorkflowIdReusePolicy.ALLOW_DUPLICATE
				&& start.options().requestId() == null && message == null;
		// a plain start has nothing to decide from earlier runs: its first task runs at
		// once and,
		// when it can, the run is inserted with it in one statement
		FirstTasks firstTasks = eager ? this.node.firstTasks() : null;
		boolean preparedEarly = firstTasks != null && plain;
		EagerFirstTask first = new EagerFirstTask(preparedEarly ? firstTasks.prepare(start.run()) : null);
		if (first.task != null) {
			FirstTasks.Insertion inserted;
			try {
				inserted = firstTasks.insert(first.task);
			}
			catch (RuntimeException ex) {
				abandon(firstTasks, first.task, ex);
				throw ex;
			}
			if (inserted == FirstTasks.Insertion.INSERTED) {
				firstTasks.adopt(first.task);
				return new Started(start.run().workflowId(), start.run().runId(), first.task.closedWith());
			}
			if (inserted == FirstTasks.Insertion.ID_TAKEN) {
				WorkflowAlreadyStartedException conflict = DecideStart.alreadyRunning(start.run().workflowId(),
						openRun(start.run()).map(RunRow::runId).orElse(null));
				abandon(firstTasks, first.task, conflict);
				throw conflict;
			}
		}
		DecideStart.StartDecision decision;
		try {
			decision = this.tx.execute((status) -> {
				DecideStart.StartDecision decided = this.decide.decide(start.run(), start.options(), start.now(),
						message, true);
				if (first.task != null) {
					firstTasks.commit(first.task);
				}
				else if (firstTasks != null && !preparedEarly && decided.created()) {
					// (a first task that failed before is not run again here: it retries
					// as an ordinary task)
					first.task = firstTasks.prepare(start.run());
					if (first.task != null) {
						firstTasks.commit(first.task);
					}
				}
				return decided;
			});
		}
		catch (DuplicateKeyException ex) {
			abandon(firstTasks, first.task, ex);
			// another start of the same id committed first: when it carried this start's
			// request id
			// (a caller's retry that ran while the first attempt's transaction was still
			// open, on
			// another node or connection, so the lookup by request id could not see it),
			// it is this
			// start's own run, answered as that lookup answers
			Optional<RunRow> same = sameRequest(start);
			if (same.isPresent()) {
				return new Started(start.run().workflowId(), same.get().runId());
			}
			Optional<RunRow> open = openRun(start.run());
			if (start.options().idConflictPolicy() == WorkflowIdConflictPolicy.USE_EXISTING && open.isPresent()) {
				return new Started(start.run().workflowId(), open.get().runId());
			}
			throw DecideStart.alreadyRunning(start.run().workflowId(), open.map(RunRow::runId).orElse(null));
		}
		catch (RuntimeException ex) {
			abandon(firstTasks, first.task, ex);
			throw ex;
		}
		if (first.task != null) {
			firstTasks.adopt(first.task);
			return new Started(start.run().workflowId(), decision.runId(), first.task.closedWith());
		}
		afterCommit(start, decision, message);
		return new Started(start.run().workflowId(), decision.runId());
	}

	/** The run a start with the same request id made, if the start has one. */
	private Optional<RunRow> sameRequest(PreparedStart start) {
		String requestId = start.options().requestId();
		return (requestId == null) ? Optional.empty()
				: this.runs.findByRequestId(start.run().namespace(), start.run().workflowId(), requestId);
	}

	/**
	 * The open run that holds a new run's workflow id (after a start was refused for it).
	 */
	private Optional<RunRow> openRun(NewRun run) {
		return this.runs.findLatest(run.namespace(), run.workflowId()).filter(RunRow::isOpen);
	}

	private static void abandon(FirstTasks firstTasks, FirstTasks.FirstTask task, Throwable failure) {
		if (firstTasks != null) {
			firstTasks.abandon(task, failure);
		}
	}

	/**
	 * A start decided inside the caller's transaction (schedules); the caller runs
	 * {@code afterCommit} once that transaction committed.
	 *
	 * @param workflowId the workflow id
	 * @param runId the run started, or the open run used instead
	 * @param afterCommit hands the new run to its node and wakes the runs the start
	 * touched
	 */
	public record StartInTransaction(String workflowId, UUID runId, Runnable afterCommit) {
	}

	/**
	 * Starts a run with an input already encoded, inside the caller's transaction: the
	 * same checks, policies and rows as {@code startRun}. Conflicts throw
	 * {@link WorkflowAlreadyStartedException} (or {@link DuplicateKeyException} when a
	 * concurrent start won), so the caller should run this in a savepoint.
	 */
	public StartInTransaction startInTransaction(String workflowType, byte[] input, StartOptions options) {
		checkStartable(workflowType);
		PreparedStart start = prepare(workflowType, input, options, null, Map.of());
		DecideStart.StartDecision decision = this.decide.decide(start.run(), start.options(), start.now(), null, false);
		return new StartInTransaction(start.run().workflowId(), decision.runId(),
				() -> afterCommit(start, decision, null));
	}

	/** Fails unless some node of the namespace serves the workflow type. */
	public void checkStartable(String workflowType) {
		if (this.workflows.find(workflowType) == null && !this.nodes.anyServes(this.namespace, workflowType)) {
			throw new UnknownWorkflowTypeException("Unknown workflow type '" + workflowType
					+ "': no node of namespace '" + this.namespace + "' registered it (registered here: "
					+ WorkflowRegistry.withoutInternal(this.node.servedTypes()) + ")");
		}
	}

	private record PreparedStart(NewRun run, StartOptions options, Instant now, Instant wakeAt, boolean local) {
	}

	private PreparedStart prepare(String workflowType, byte[] payload, StartOptions given, WithStart message,
			Map<String, String> headers) {
		StartOptions options = (given != null) ? given : StartOptions.DEFAULT;
		String workflowId = (options.workflowId() != null) ? options.workflowId() : UUID.randomUUID().toString();
		WorkflowIds.check(workflowId);
		String queue = (options.taskQueue() != null) ? options.taskQueue() : EngineSettings.DEFAULT_TASK_QUEUE;
		this.queued.check(this.namespace, options);
		// a run that waits in a flow-control queue is not this node's until admitted
		BuildAssignment build = this.routing.assignNew(workflowType, workflowId);
		boolean local = options.queue() == null && this.node.servesLocally(workflowType, queue)
				&& this.routing.here(build);
		Instant now = this.clock.instant();
		Instant wakeAt = (options.startDelay() != null && !options.startDelay().isZero())
				? now.plus(options.startDelay()) : null;
		if (options.cronSchedule() != null) {
			CronSchedule.parse(options.cronSchedule()).zone();
		}
		// checked before anything is written
		java.util.Map<String, Object> memo = Attributes.memo(options.memo(), false);
		java.util.Map<String, Object> searchAttributes = Attributes.searchAttributes(options.searchAttributes(), false);
		Attributes.checkSize(memo, true);
		Attributes.checkSize(searchAttributes, false);
		RunChain chain = new RunChain(options.retryPolicy(), options.cronSchedule(), options.taskTimeout(), headers,
				options.summary(), options.details());
		if (options.cronSchedule() != null && wakeAt == null && message == null) {
			// a cron workflow's first run waits for the first time of its schedule
			wakeAt = chain.next(RunStatus.COMPLETED, null, 0, now).startAt();
		}
		NewRun run = new NewRun(UuidV7.next(now), this.namespace, workflowId, workflowType, queue,
				local ? this.node.nodeId() : null, payload, options.requestId(), now, wakeAt,
				(options.runTimeout() != null) ? now.plus(options.runTimeout()) : null,
				(options.executionTimeout() != null) ? now.plus(options.executionTimeout()) : null,
				chain.isEmpty() ? null : chain, 1)
			.withAttributes(memo, searchAttributes)
			.withBuild(build);
		return new PreparedStart(run, options, now, wakeAt, local);
	}

	private void afterCommit(PreparedStart start, DecideStart.StartDecision decision, WithStart message) {
		NewRun run = start.run();
		Instant wakeAt = start.wakeAt();
		if (decision.terminated() != null) {
			this.listeners.runClosed(decision.terminated(), RunStatus.TERMINATED);
			this.waiters.closed(decision.terminated().runId());
			this.waker.wake(decision.terminated().runId(), decision.terminated().owner());
			if (decision.terminatedWoken() != null) {
				// the terminated run's parent and children, told after the commit
				decision.terminatedWoken().forEach((other) -> this.waker.wake(other, null));
			}
		}
		// runs of the new run's partition key asked to cancel to make room for it
		decision.canceled().forEach((canceled) -> this.waker.wake(canceled.runId(), canceled.owner()));
		if (decision.created() && this.queued.created(run, start.options())) {
			return; // the dispatchers take it from here
		}
		if (decision.created() && start.local()) {
			// a message sent with the start skips the start delay
			this.node.adoptStarted(run.runId(), (message != null) ? null : wakeAt);
		}
		else if (decision.created() && (wakeAt == null || message != null)) {
			this.waker.wake(run.runId(), null);
		}
		else if (!decision.created() && decision.messaged() != null) {
			this.waker.wake(decision.runId(), decision.messaged().owner());
		}
	}

	/**
	 * The first task of an eager start, run by the starting thread: prepared before the
	 * start's transaction (a plain start), inside it once the start decided to create the
	 * run, or not at all ({@code null}: the run's first task runs as an ordinary task).
	 * The transaction's callback sets it, and a failure after it abandons it.
	 */
	private static final class EagerFirstTask {

		private FirstTasks.FirstTask task;

		EagerFirstTask(FirstTasks.FirstTask task) {
			this.task = task;
		}

	}

}
