package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import javax.sql.DataSource;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.activity.TransactionalSettings;
import dev.durable.workflow.internal.commit.TaskCommitRepository;
import dev.durable.workflow.internal.versioning.BuildRouter;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.node.NodeLease;
import dev.durable.workflow.internal.node.NodeService;
import dev.durable.workflow.internal.queue.QueueStores;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.retention.Retention;
import dev.durable.workflow.internal.store.EngineDataSource;
import dev.durable.workflow.internal.store.Stores;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.testsupport.EngineHooks;

/**
 * The parts of a node that outlive its starts, as the engine's composition root hands
 * them over: its settings, data sources, clock, registries, stores, the flow-control and
 * task queues it serves, its group commit and retention. {@link NodeRuntime} wires each
 * start of the node from them.
 */
public final class NodeWiring {

	final UUID nodeId = UUID.randomUUID();

	final EngineSettings config;

	final DataSource dataSource;

	final DataSource directDataSource;

	final Clock clock;

	final WorkflowRegistry workflows;

	final ActivityRegistry activityRegistry;

	final DefaultWorkflowFactory defaultFactory;

	final Function<Class<?>, Object> factory;

	final Payloads payloads;

	final Stores stores;

	final ResultWaiters waiters;

	final EngineHooks hooks;

	final Listeners listeners;

	final boolean migrate;

	final TransactionalSettings transactions;

	final EngineDataSource engineData;

	final NodeLease lease;

	final NodeQueues queues;

	final NodeTaskQueues taskQueues;

	final TaskCommitRepository taskCommits;

	final Retention retention;

	/** Which build new runs belong to and which runs this node takes. */
	final BuildRouter routing;

	/**
	 * The services of a worker node that the composition root wires after the node (the
	 * schedule loop fires its starts through the node's client side); they start after
	 * the node's own and stop before them.
	 */
	final List<NodeService> workerServices = new CopyOnWriteArrayList<>();

	/**
	 * What a worker node runs after each dispatch of topic events (the triggers' steps),
	 * added before the node first starts.
	 */
	final List<Runnable> topicSteps = new CopyOnWriteArrayList<>();

	/**
	 * @param factory how workflow instances are created, or {@code null} for constructor
	 * injection of the registered activities
	 * @param migrate whether the node's start creates and upgrades the schema
	 * @param directDataSource connections that bypass a transaction-mode pooler, for
	 * LISTEN and the schema migration; the same as {@code dataSource} when there is no
	 * such pooler
	 * @param engineData the connections of {@code dataSource} the engine's own statements
	 * take, which {@code stores} run on (bounded by the statement timeout, closed while
	 * {@code lease} ran out)
	 * @param lease the node's lease, which its heartbeat renews
	 */
	public NodeWiring(EngineSettings config, DataSource dataSource, DataSource directDataSource, Clock clock,
			WorkflowRegistry workflows, ActivityRegistry activityRegistry, Function<Class<?>, Object> factory,
			Payloads payloads, Stores stores, ResultWaiters waiters, EngineHooks hooks, Listeners listeners,
			boolean migrate, QueueStores queues, TransactionalSettings transactions, EngineDataSource engineData,
			NodeLease lease, BuildRouter routing) {
		this.config = config;
		this.dataSource = dataSource;
		this.directDataSource = directDataSource;
		this.clock = clock;
		this.workflows = workflows;
		this.activityRegistry = activityRegistry;
		this.defaultFactory = new DefaultWorkflowFactory(activityRegistry);
		this.factory = (factory != null) ? factory : this.defaultFactory::instantiate;
		this.payloads = payloads;
		this.stores = stores;
		this.waiters = waiters;
		this.hooks = hooks;
		this.listeners = listeners;
		this.migrate = migrate;
		this.transactions = transactions;
		this.engineData = engineData;
		this.lease = lease;
		this.routing = routing;
		this.queues = new NodeQueues(config, this.nodeId, clock, stores.tx(), queues);
		this.taskQueues = new NodeTaskQueues(queues.admission());
		// the node's own group commit: only the node writes workflow-task commits
		this.taskCommits = new TaskCommitRepository(stores.jdbc(), stores.runs(), config.schema(), routing);
		this.retention = new Retention(stores.retention(), config.namespace(), config.retention(), clock);
	}

	/** What runs the workflow code on this node. */
	WorkflowCode code() {
		return new WorkflowCode(this.workflows, this.factory, this.payloads);
	}

	/** The workflow types this node runs: none on a worker-only node. */
	Set<String> servedTypes() {
		if (!this.config.runsWorkflows()) {
			return Set.of(); // a worker-only node runs activities only
		}
		return this.workflows.servedTypes();
	}

}
