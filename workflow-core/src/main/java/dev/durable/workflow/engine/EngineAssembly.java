package dev.durable.workflow.engine;

import java.time.Clock;
import java.util.List;
import java.util.function.Function;
import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.WorkflowSemaphore;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.schedule.ScheduleClient;
import dev.durable.workflow.internal.activity.ActivityInvoker;
import dev.durable.workflow.internal.activity.TransactionalSettings;
import dev.durable.workflow.internal.batch.BatchRepository;
import dev.durable.workflow.internal.batch.BatchRunner;
import dev.durable.workflow.internal.batch.BatchWorkflow;
import dev.durable.workflow.internal.batch.Batches;
import dev.durable.workflow.internal.client.ActivityCompletionClientImpl;
import dev.durable.workflow.internal.client.ActivityOperations;
import dev.durable.workflow.internal.client.Debouncer;
import dev.durable.workflow.internal.client.HandleOperations;
import dev.durable.workflow.internal.client.MessageClient;
import dev.durable.workflow.internal.client.RunControl;
import dev.durable.workflow.internal.client.RunDescriber;
import dev.durable.workflow.internal.client.RunLookup;
import dev.durable.workflow.internal.client.RunOutputs;
import dev.durable.workflow.internal.client.RunResults;
import dev.durable.workflow.internal.client.RunStarter;
import dev.durable.workflow.internal.client.RunWaits;
import dev.durable.workflow.internal.client.StartHandOff;
import dev.durable.workflow.internal.client.StartObservers;
import dev.durable.workflow.internal.client.StartStores;
import dev.durable.workflow.internal.client.TopicClient;
import dev.durable.workflow.internal.client.WorkflowClientImpl;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.node.NodeLease;
import dev.durable.workflow.internal.node.NodeService;
import dev.durable.workflow.internal.queue.QueueStores;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.replay.CheckReplay;
import dev.durable.workflow.internal.schedule.ScheduleClientImpl;
import dev.durable.workflow.internal.schedule.ScheduleFirer;
import dev.durable.workflow.internal.schedule.ScheduleLoop;
import dev.durable.workflow.internal.schedule.ScheduleRepository;
import dev.durable.workflow.internal.store.BuildRepository;
import dev.durable.workflow.internal.store.DatabaseClock;
import dev.durable.workflow.internal.store.EngineDataSource;
import dev.durable.workflow.internal.store.LatestRunSignal;
import dev.durable.workflow.internal.store.OutputRepository;
import dev.durable.workflow.internal.store.ReplaySamples;
import dev.durable.workflow.internal.store.RunPauses;
import dev.durable.workflow.internal.store.SessionTimeouts;
import dev.durable.workflow.internal.store.StatsRepository;
import dev.durable.workflow.internal.store.Stores;
import dev.durable.workflow.internal.store.WakeTimes;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.taskqueue.ActivityOutcomes;
import dev.durable.workflow.internal.topic.TopicPublisher;
import dev.durable.workflow.internal.trigger.EventTriggers;
import dev.durable.workflow.internal.versioning.BuildRouter;
import dev.durable.workflow.internal.versioning.MoveRuns;
import dev.durable.workflow.internal.versioning.MoveStrandedRuns;
import dev.durable.workflow.internal.versioning.WorkerBuildsImpl;
import dev.durable.workflow.internal.worker.Engine;
import dev.durable.workflow.internal.worker.NodeQuiescence;
import dev.durable.workflow.internal.worker.NodeWiring;
import dev.durable.workflow.internal.worker.ResultWaiters;
import dev.durable.workflow.payload.PayloadConverter;
import dev.durable.workflow.testsupport.EngineHooks;
import dev.durable.workflow.testsupport.EngineQuiescence;
import dev.durable.workflow.testsupport.SettableClock;

/**
 * The engine's composition root, built by {@link WorkflowEngine.Builder#build()}: the one
 * place its object graph is wired (the shared stores, the node, the client with the
 * behaviours its handles delegate to, and the schedules), and what {@link WorkflowEngine}
 * holds of it. Every object gets its collaborators through its constructor.
 */
final class EngineAssembly {

	/** The node: its loops, tasks and activities. */
	final Engine node;

	final WorkflowClient client;

	/** The schedule firing loop (started on worker nodes only). */
	final ScheduleLoop scheduleLoop;

	/** The registered workflow types, as the public API shows them. */
	final RegisteredWorkflowTypes types;

	/** The test kit's view of the node. */
	final EngineQuiescence quiescence;

	/** The database reads behind {@link WorkflowEngine#stats}. */
	final EngineStatsReader stats;

	/** The replays behind {@link WorkflowEngine#checkReplay}. */
	final CheckReplay replayCheck;

	/** The registered workflow classes, by type. */
	final WorkflowRegistry workflows;

	/**
	 * @param workflowClasses the registered workflow classes
	 * @param activityImplementations the registered activity implementations
	 * @param factory how workflow instances are created, or {@code null} for constructor
	 * injection
	 */
	EngineAssembly(EngineSettings config, DataSource dataSource, DataSource directDataSource, Clock nodeClock,
			List<Class<?>> workflowClasses, List<Object> activityImplementations, ActivityOptions activityDefaults,
			@Nullable Function<Class<?>, Object> factory, PayloadConverter converter, EngineHooks hooks,
			Listeners listeners, boolean migrate, TransactionalSettings transactions) {
		WorkflowRegistry workflows = new WorkflowRegistry(config.failWorkflowExceptionTypes());
		workflowClasses.forEach(workflows::register);
		if (config.workerEnabled() && config.runsWorkflows() && !workflowClasses.isEmpty()) {
			// the permits of WorkflowSemaphore run wherever workflows run
			workflows.register(WorkflowSemaphore.PermitWorkflow.class);
			// and so do the batches
			workflows.register(BatchWorkflow.class);
		}
		ActivityRegistry activities = new ActivityRegistry(activityDefaults);
		activityImplementations.forEach(activities::register);
		String namespace = config.namespace();
		// a worker's lease closes the engine's connections while it is fenced; a client
		// has none
		NodeLease lease = new NodeLease(config);
		EngineDataSource engineData = new EngineDataSource(dataSource, config.statementTimeout(), lease,
				SessionTimeouts.of(config.idleInTransactionTimeout(), config.statementTimeout()));
		Stores stores = Stores.of(engineData, config.schema());
		// every time the engine schedules is compared across nodes: it is read on the
		// database's clock,
		// unless a test moves time with a settable clock (then that clock is the one
		// truth)
		Clock clock = (nodeClock instanceof SettableClock) ? nodeClock : new DatabaseClock(nodeClock, stores.jdbc());
		QueueStores queues = QueueStores.of(stores.jdbc(), config.schema());
		Payloads payloads = new Payloads(converter, config.maxPayloadBytes());
		ResultWaiters waiters = new ResultWaiters();
		// a terminate or timeout of an awaited run tells the nodes (once this node sends
		// news)
		stores.runs().awaited().onClose(waiters::awaitedCommitted);
		BuildRepository buildRows = new BuildRepository(stores.jdbc(), config.schema());
		BuildRouter routing = new BuildRouter(namespace, config.buildId(), config.versioning().defaultBehavior(),
				workflows, buildRows, config.pollInterval(), config.deadAfter());
		Engine node = new Engine(
				new NodeWiring(config, dataSource, directDataSource, clock, workflows, activities, factory, payloads,
						stores, waiters, hooks, listeners, migrate, queues, transactions, engineData, lease, routing));
		RunStarter starter = new RunStarter(namespace, clock, workflows, payloads,
				new StartStores(stores.runs(), stores.dedup(), stores.nodes(), queues.repository(), stores.tx()),
				new StartHandOff(node, node, node, routing),
				new StartObservers(listeners, waiters, listeners.interceptors()));
		RunLookup lookup = new RunLookup(stores.runs(), namespace);
		MoveRuns moves = new MoveRuns(routing, buildRows, node::replay);
		// nodes of the current build move the stranded runs of the types that ask for it
		node.addWorkerService(new MoveStrandedRuns(routing, buildRows, moves, config.versioning().moveStrandedAfter(),
				config.heartbeatInterval()));
		RunDescriber describer = new RunDescriber(stores.runs(), stores.tasks(), stores.activities(), converter, clock,
				buildRows, config.deadAfter());
		HandleOperations handles = new HandleOperations(lookup, new RunResults(stores.runs(), waiters, node, payloads),
				new MessageClient(namespace, workflows, payloads, stores.runs(), stores.dedup(), stores.tx(), lookup,
						new LatestRunSignal(stores.jdbc(), config.schema()), node, node, waiters,
						listeners.interceptors()),
				new RunControl(stores.runs(), stores.tasks(), stores.tx(), lookup, node, waiters, listeners, clock,
						listeners.interceptors(), new RunPauses(stores.jdbc(), config.schema())),
				describer,
				new RunOutputs(new OutputRepository(stores.jdbc(), config.schema()), stores.runs(), waiters, payloads),
				new RunWaits(describer, node, stores.runs()), new ActivityOperations(describer,
						stores.activities().pauses(), stores.tx(), lookup, node, clock, listeners.interceptors()),
				new WorkerBuildsImpl(routing, buildRows, moves, config.retention()));
		JdbcTemplate jdbc = stores.jdbc();
		ScheduleRepository scheduleRows = new ScheduleRepository(jdbc, config.schema());
		ScheduleFirer firer = new ScheduleFirer(clock, stores.tx(), stores.runs(), node, waiters, starter,
				scheduleRows);
		Debouncer debouncer = new Debouncer(namespace, clock, jdbc, config.schema(), starter, payloads, stores.tx());
		ScheduleLoop scheduleLoop = new ScheduleLoop(scheduleRows, firer, clock, namespace, config.pollInterval(),
				debouncer);
		debouncer.onChange(scheduleLoop::wakeUp);
		// every worker node fires the schedules; their steps' compare-and-set keeps each
		// firing single
		node.addWorkerService(scheduleLoop);
		ScheduleClient schedules = new ScheduleClientImpl(namespace, clock, stores.tx(), payloads, workflows, starter,
				scheduleRows, firer, scheduleLoop);
		ActivityCompletionClientImpl completions = new ActivityCompletionClientImpl(
				new ActivityOutcomes(jdbc, config.schema()), new ActivityInvoker(activities, payloads), payloads, clock,
				node);
		BatchRepository batchRows = new BatchRepository(jdbc, config.schema());
		WorkflowClientImpl client = new WorkflowClientImpl(starter, handles, workflows, stores.runs(), namespace,
				schedules, completions, debouncer,
				new Batches(namespace, batchRows,
						(type, input, options) -> starter.startInTransaction(type, input, options).afterCommit(),
						payloads, stores.tx(), clock),
				new TopicClient(new TopicPublisher(jdbc, config.schema(), namespace), payloads.converter()));
		// the batch pages call the client, so their activity is registered once the
		// client exists
		activities.register(new BatchRunner(namespace, batchRows, client, payloads, clock));
		// the triggers start and cancel runs through the client, so they are wired once
		// it
		// exists; they act after each dispatch of topic events
		EventTriggers triggers = new EventTriggers(jdbc, stores.tx(), config.schema(), namespace, workflows, starter,
				client, payloads, clock);
		node.addWorkerService(NodeService.of(triggers::declare, () -> {
		}, (deadline) -> {
		}));
		node.addTopicStep(triggers::act);
		NodeQuiescence quiescence = new NodeQuiescence(node::isIdle, node::activitiesInFlight, waiters,
				new WakeTimes(jdbc, config.schema()), namespace);
		this.node = node;
		this.client = client;
		this.scheduleLoop = scheduleLoop;
		this.types = new RegisteredWorkflowTypes(workflows);
		this.quiescence = quiescence;
		this.replayCheck = new CheckReplay(namespace, workflows, new ReplaySamples(jdbc, config.schema()),
				node::replay);
		this.workflows = workflows;
		this.stats = new EngineStatsReader(new StatsRepository(jdbc, config.schema()), queues.repository(), clock,
				config);
	}

}
