package dev.durable.workflow.internal.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.execution.WakeScheduler;
import dev.durable.workflow.internal.inline.ActivityExecutor;
import dev.durable.workflow.internal.node.ClockRefresh;
import dev.durable.workflow.internal.node.NodeHeartbeat;
import dev.durable.workflow.internal.node.NodeLease;
import dev.durable.workflow.internal.node.NodeService;
import dev.durable.workflow.internal.node.NodeServices;
import dev.durable.workflow.internal.store.BuildRepository;
import dev.durable.workflow.internal.store.DatabaseClock;
import dev.durable.workflow.internal.store.DedicatedConnection;
import dev.durable.workflow.internal.store.NodeRepository;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.internal.topic.TopicDispatcher;
import dev.durable.workflow.internal.wakeup.WakeupChannel;
import dev.durable.workflow.testsupport.SettableClock;

/**
 * What one start of a node wires and runs: the workflow task executor, the inline
 * activity runtime, the due actions, the notification channel and queries every node has
 * (its client side), the heartbeat and fallback poll only a worker node has (its
 * {@link #worker} side), and the node's background services in the order they start (see
 * {@link NodeServices}, which stops them in the reverse order). A node wires a new one at
 * each start, so that a stopped node can start again.
 */
final class NodeRuntime {

	private static final Logger log = LoggerFactory.getLogger(NodeRuntime.class);

	/**
	 * How long past the timeout the tasks that the last outcomes woke may take to commit
	 * them.
	 */
	static final Duration COMMIT_GRACE = Duration.ofSeconds(2);

	final WorkflowTaskExecutor executor;

	final ActivityExecutor activities;

	final WakeScheduler wake;

	final WakeupChannel wakeups;

	final QueryExecutor queries;

	final FirstTasks firstTasks;

	/** The loops only a worker node runs; empty on a client-only node. */
	final Optional<WorkerLoops> worker;

	final NodeServices services;

	private final UUID nodeId;

	/**
	 * The loops of a worker node.
	 *
	 * @param heartbeat the node's registration and lease
	 * @param poll the fallback poll
	 */
	record WorkerLoops(NodeHeartbeat heartbeat, FallbackPoll poll) {
	}

	/** Wires a start of the node from its shared parts; nothing runs until started. */
	NodeRuntime(NodeWiring node) {
		EngineSettings config = node.config;
		UUID nodeId = node.nodeId;
		this.nodeId = nodeId;
		ExecutorService taskPool = Executors
			.newThreadPerTaskExecutor(Thread.ofVirtual().name("durable-task-", 0).factory());
		this.wake = new WakeScheduler(node.clock, taskPool);
		this.wakeups = WakeupChannel.forNode(node.engineData, node.directDataSource, config);
		this.activities = new ActivityExecutor(node.activityRegistry, node.stores.activities(), node.payloads,
				node.clock, this.wake, nodeId, config.maxConcurrentActivities(), node.listeners, node.transactions,
				node.lease);
		this.executor = new WorkflowTaskExecutor(config, nodeId, node.clock, node.lease, node.code(),
				new TaskStores(node.stores.runs(), node.stores.ownership(), node.stores.tasks(), node.taskCommits,
						node.stores.tx(), node.routing),
				new TaskThreads(taskPool, this.wake), new TaskObservers(node.waiters, node.listeners, node.hooks),
				RunEffects.of(this.activities, (runId) -> wake(runId, null), node.taskQueues::queued,
						node.queues::closed));
		this.firstTasks = new FirstTasks(this.executor, node.taskCommits, node.hooks, node.listeners, node.clock);
		this.queries = new QueryExecutor(this.executor.slots(), node.stores.tasks(), node.code(), config);
		node.waiters.sendNewsWith(this.wakeups::notifyOutputs, this.wakeups::notifyClosed);
		this.worker = config.workerEnabled() ? Optional.of(workerLoops(node)) : Optional.empty();

		// the services in the order they start; they stop in the reverse order
		List<NodeService> services = new ArrayList<>();
		if (!config.workerEnabled() && node.clock instanceof DatabaseClock database) {
			// no heartbeat: the clock is measured again on its own
			ClockRefresh refresh = new ClockRefresh(database::measure, config.heartbeatInterval());
			// its statement is bounded by the statement timeout
			services.add(NodeService.of(refresh::start, () -> {
			}, (deadline) -> refresh.stop(config.statementTimeout().plusSeconds(1))));
		}
		// closed last: the release of the runs tells the other nodes through it
		services.add(NodeService.of(() -> {
		}, () -> {
		}, (deadline) -> this.wakeups.close()));
		this.worker.ifPresent((loops) -> services.add(registration(node, loops.heartbeat())));
		services.add(NodeService.of(() -> node.taskCommits.startWriter("durable-writer"), () -> {
		}, (deadline) -> node.taskCommits.stopWriter()));
		services.add(NodeService.of(() -> {
		}, () -> {
		}, (deadline) -> {
			taskPool.shutdown();
			try {
				taskPool.awaitTermination(1, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}));
		services.add(NodeService.of(() -> {
		}, () -> {
		}, (deadline) -> this.queries.clear()));
		services.add(NodeService.of(() -> {
			if (config.workerEnabled()) {
				node.taskQueues.start(config, node.activityRegistry, node.stores, node.payloads, node.clock, nodeId,
						this.worker.orElseThrow().heartbeat()::incarnation, node.listeners, this::wake, this.wakeups);
			}
		}, () -> {
		}, (deadline) -> node.taskQueues.close()));
		services.add(NodeService.of(() -> {
		}, () -> {
		}, (deadline) -> this.wake.close()));
		services.add(NodeService.of(() -> {
			node.queues.start(this.wakeups);
			if (config.workerEnabled() && config.runsWorkflows() && !node.servedTypes().isEmpty()) {
				node.queues.startDispatcher(node.servedTypes(),
						(runId, epoch) -> this.executor.adopt(runId, epoch, false), (row, woken) -> {
							// a run closed without its code, as a run timeout closes it
							node.listeners.runClosed(row, RunStatus.TIMED_OUT);
							node.waiters.closed(row.runId());
							woken.forEach(this.executor::wakeAnywhere);
						});
			}
		}, node.queues::close, (deadline) -> node.queues.awaitStopped()));
		if (this.worker.isPresent()) {
			FallbackPoll poll = this.worker.get().poll();
			TopicDispatcher topics = new TopicDispatcher(node.stores.jdbc(), node.stores.tx(), config.schema(),
					node.payloads.converter(), this::wake, TopicDispatcher.sweepInterval(config.pollInterval()),
					node.clock, node.topicSteps);
			services.add(NodeService.of(() -> this.wakeups.listen(nodeId, poll::pollNow, node.queues::woken,
					node.taskQueues::woken, (runId) -> this.executor.wakeOrPoll(runId, poll::pollNow),
					node.waiters::outputsCommittedElsewhere, node.waiters::closedElsewhere, topics::dispatchSoon),
					() -> {
					}, (deadline) -> {
						// the channel's close ends the listener
					}));
			services.add(poll);
			services.add(topics);
			if (node.clock instanceof SettableClock settable) {
				Runnable clockMoved = () -> {
					// timers, delayed starts and rate windows may have come due
					poll.pollNow();
					node.taskQueues.clockMoved();
					node.queues.clockMoved();
				};
				services.add(NodeService.of(() -> settable.onChange(clockMoved), () -> {
				}, (deadline) -> settable.removeListener(clockMoved)));
			}
		}
		else {
			services.add(NodeService.of(() -> this.wakeups.listenForOutputs(nodeId,
					node.waiters::outputsCommittedElsewhere, node.waiters::closedElsewhere), () -> {
					}, (deadline) -> {
						// the channel's close ends the listener
					}));
		}
		// the tasks that the last outcomes woke commit them (what those tasks schedule
		// does not start)
		services.add(NodeService.of(() -> {
		}, () -> {
		}, (deadline) -> NodeServices.await(() -> !this.executor.anyTaskBusy() && !this.executor.anyLeavingTask(),
				Math.max(deadline, System.nanoTime() + COMMIT_GRACE.toNanos()))));
		// the attempts under way, inline and claimed from task queues, end or the timeout
		// passes
		services.add(NodeService.of(() -> {
		}, () -> {
			node.taskQueues.stopClaiming();
			this.activities.drain();
		}, (deadline) -> {
			boolean ended = NodeServices.await(() -> this.activities.inFlight() == 0 && !node.taskQueues.anyRunning(),
					deadline);
			int inline = this.activities.inFlight();
			if (!ended && inline > 0) {
				log.warn(
						"Giving up {} inline activity attempt(s) still running after the shutdown timeout of {}:"
								+ " the node that takes their runs over retries them",
						inline, config.shutdownTimeout());
			}
		}));
		if (config.workerEnabled()) {
			// last to start and first to stop: the schedule loop, whose firings start
			// runs
			services.addAll(node.workerServices);
		}
		this.services = new NodeServices(nodeId, config.shutdownTimeout(), services);
	}

	private WorkerLoops workerLoops(NodeWiring node) {
		EngineSettings config = node.config;
		// the heartbeat's own connection: renewing the lease must not wait behind the
		// work for the pool
		DedicatedConnection heartbeatConnection = new DedicatedConnection(node.directDataSource,
				config.statementTimeout());
		JdbcTemplate heartbeatJdbc = new JdbcTemplate(heartbeatConnection);
		Runnable measureClock = (node.clock instanceof DatabaseClock database) ? () -> database.measure(heartbeatJdbc)
				: () -> {
				};
		BuildRepository heartbeatBuilds = new BuildRepository(heartbeatJdbc, config.schema());
		Runnable measureOnHeartbeat = () -> {
			measureClock.run();
			node.routing.heartbeat(heartbeatBuilds);
		};
		NodeHeartbeat heartbeat = new NodeHeartbeat(config, node.nodeId,
				new NodeRepository(heartbeatJdbc, config.schema()), node.hooks, node::servedTypes,
				() -> this.executor.eviction().evictAll(), measureOnHeartbeat, node.lease, () -> fenced(node),
				heartbeatConnection);
		FallbackPoll poll = new FallbackPoll(config, node.nodeId, node.clock, node.stores.ownership(),
				node.stores.nodes(), node.retention, this.executor, node::servedTypes, node.lease, node.routing);
		return new WorkerLoops(heartbeat, poll);
	}

	/**
	 * The node's registration: its heartbeat keeps it while the node stops (stopped after
	 * the work it waits for); its stop releases the node's runs to the other nodes at
	 * once and unregisters it.
	 */
	private NodeService registration(NodeWiring node, NodeHeartbeat heartbeat) {
		return NodeService.of(() -> {
			heartbeat.start();
			// the build is known once its first node registered: it may be the newest
			node.routing.registered();
		}, heartbeat::stopping, (deadline) -> {
			try {
				this.executor.eviction().releaseAll();
				node.stores.ownership().releaseAll(node.nodeId);
				// a heartbeat under way ends first: one after the unregister would
				// register the node anew
				heartbeat.close();
				node.stores.nodes().unregister(node.nodeId);
				this.wakeups.notifyNode(null);
			}
			catch (RuntimeException ex) {
				log.warn("Could not release the runs of node {}: {}", node.nodeId, Errors.rootMessage(ex));
			}
			finally {
				// a release that failed (the database unreachable, the node fenced) must
				// not leave the heartbeat running: it would register the stopped node
				// anew once the database answers
				heartbeat.close();
			}
		});
	}

	/**
	 * The lease ran out (see {@link NodeLease}): when the database does not answer,
	 * statements under way are aborted rather than left to their timeout; the cached runs
	 * are evicted (another node takes them over, or this one claims them again once its
	 * heartbeat is answered).
	 */
	private void fenced(NodeWiring node) {
		if (node.lease.closedReason() != null) {
			node.engineData.abortAll();
		}
		this.executor.eviction().evictAll();
	}

	/** Wakes a run: here when this node owns it, else through its owner's channel. */
	void wake(UUID runId, UUID owner) {
		if (this.nodeId.equals(owner)) {
			this.executor.wake(runId);
		}
		else if (owner != null) {
			this.wakeups.notifyRun(owner, runId);
		}
		else {
			this.wakeups.notifyNode(null);
		}
	}

	/** Asks the fallback poll to look at once (nothing on a client-only node). */
	void pollNow() {
		this.worker.ifPresent((loops) -> loops.poll().pollNow());
	}

}
