package dev.durable.workflow.internal.node;

import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.store.NodeRepository;
import dev.durable.workflow.internal.support.BackgroundThreads;
import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.testsupport.EngineHooks;

/**
 * The node's registration, heartbeat and lease. A heartbeat that finds the node declared
 * dead (its row stale: other nodes may have taken its runs and its activity attempts)
 * evicts everything and registers anew, under a new incarnation. Each heartbeat the
 * database answers renews the node's {@link NodeLease}; a watch fences the node the
 * moment the lease runs out (the heartbeat thread may itself be stuck in a statement
 * then), and a heartbeat answered later lifts the fence.
 */
public final class NodeHeartbeat implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(NodeHeartbeat.class);

	private final EngineSettings config;

	private final UUID nodeId;

	private final NodeRepository nodes;

	private final EngineHooks hooks;

	private final Supplier<Set<String>> servedTypes;

	private final Runnable onDeclaredDead;

	private final Runnable measureClock;

	private final NodeLease lease;

	private final Runnable onFenced;

	private final AutoCloseable connection;

	private volatile long incarnation;

	private volatile boolean running = true;

	/** Set once the node's stop began: it heartbeats on, but never registers anew. */
	private volatile boolean stopping;

	private Thread thread;

	private Thread watch;

	/**
	 * @param nodes node rows, on the heartbeat's own connection: the fence does not close
	 * it (the heartbeat lifts the fence), and a busy pool does not keep the heartbeat
	 * waiting
	 * @param onFenced what the node does when its lease runs out
	 * @param connection the heartbeat's own connection, closed with the heartbeat
	 */
	public NodeHeartbeat(EngineSettings config, UUID nodeId, NodeRepository nodes, EngineHooks hooks,
			Supplier<Set<String>> servedTypes, Runnable onDeclaredDead, Runnable measureClock, NodeLease lease,
			Runnable onFenced, AutoCloseable connection) {
		this.config = config;
		this.nodeId = nodeId;
		this.nodes = nodes;
		this.hooks = hooks;
		this.servedTypes = servedTypes;
		this.onDeclaredDead = onDeclaredDead;
		this.measureClock = measureClock;
		this.lease = lease;
		this.onFenced = onFenced;
		this.connection = connection;
	}

	/** Registers the node and starts heartbeating. */
	public NodeHeartbeat start() {
		register();
		this.thread = Thread.ofPlatform().daemon().name("durable-heartbeat").start(this::loop);
		this.watch = Thread.ofPlatform().daemon().name("durable-lease").start(this::watch);
		return this;
	}

	/** The incarnation the node heartbeats with (what fences its activity claims). */
	public long incarnation() {
		return this.incarnation;
	}

	private void register() {
		String name = ManagementFactory.getRuntimeMXBean().getName();
		java.util.Set<String> queues = new java.util.LinkedHashSet<>(this.config.taskQueues());
		this.config.activityTaskQueues().forEach((queue) -> queues.add("activity:" + queue));
		long sent = System.nanoTime();
		this.incarnation = this.nodes.register(this.nodeId, this.config.namespace(), name, this.config.buildId(),
				this.servedTypes.get(), queues);
		this.lease.renewed(sent);
	}

	private void loop() {
		while (this.running) {
			try {
				Thread.sleep(this.config.heartbeatInterval().toMillis());
				this.hooks.beforeHeartbeat();
				if (!this.running) {
					return;
				}
				if (!beat()) {
					return;
				}
				// the node's clock may have been stepped or drifted: the engine's times
				// stay the database's
				this.measureClock.run();
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (RuntimeException ex) {
				log.warn("Heartbeat of node {} failed: {}", this.nodeId, Errors.rootMessage(ex));
			}
		}
	}

	/**
	 * One heartbeat; false when the node, declared dead while it stops, heartbeats no
	 * more.
	 */
	private boolean beat() {
		long sent = System.nanoTime();
		boolean fenced = this.lease.isFenced();
		this.lease.sending();
		if (fenced) {
			// a read first: where only the answers are lost (a one-way partition),
			// renewing the row
			// would keep other nodes from taking over the runs this node no longer runs
			this.nodes.probe();
		}
		if (this.nodes.heartbeat(this.nodeId, this.incarnation, this.config.deadAfter().toMillis())) {
			this.lease.renewed(sent);
			if (fenced) {
				log.info("Node {} renewed its heartbeat again: it works again", this.nodeId);
			}
			return true;
		}
		this.lease.answered();
		if (this.stopping || !this.running) {
			// the stop releases what is left and unregisters: a node registered anew
			// would outlive
			// the shutdown as a live node that never heartbeats again
			log.warn("Node {} was declared dead while stopping: evicting all runs, heartbeating no more", this.nodeId);
			this.onDeclaredDead.run();
			return false;
		}
		log.warn("Node {} was declared dead (heartbeat older than {}): evicting all runs and registering anew",
				this.nodeId, this.config.deadAfter());
		this.onDeclaredDead.run();
		register();
		return true;
	}

	/** Fences the node when its lease runs out, once per lapse. */
	private void watch() {
		boolean fenced = false;
		while (this.running) {
			long remaining = this.lease.remainingNanos();
			try {
				if (remaining > 0) {
					fenced = false;
					TimeUnit.NANOSECONDS.sleep(remaining);
				}
				else {
					if (!fenced) {
						fenced = true;
						log.warn(
								"Node {} could not renew its heartbeat for {} (another node may take its runs over"
										+ " after {}): it stops working until the database answers it again",
								this.nodeId, this.lease.length(), this.config.deadAfter());
						this.onFenced.run();
					}
					// until a heartbeat renews the lease
					TimeUnit.NANOSECONDS.sleep(Math.max(TimeUnit.MILLISECONDS.toNanos(10),
							this.config.heartbeatInterval().toNanos() / 10));
				}
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (RuntimeException ex) {
				log.warn("Fencing node {} failed: {}", this.nodeId, Errors.rootMessage(ex), ex);
			}
		}
	}

	/**
	 * The node's stop began: it heartbeats on while it waits, but a node declared dead
	 * stops heartbeating.
	 */
	public void stopping() {
		this.stopping = true;
	}

	/**
	 * Stops heartbeating and waits for a heartbeat under way (bounded): once this
	 * returns, no heartbeat or registration of the node reaches the database, so the node
	 * can unregister.
	 */
	@Override
	public void close() {
		this.stopping = true;
		this.running = false;
		this.lease.released();
		if (this.thread != null) {
			this.thread.interrupt();
		}
		if (this.watch != null) {
			this.watch.interrupt();
		}
		BackgroundThreads.awaitEnded(this.thread);
		BackgroundThreads.awaitEnded(this.watch);
		try {
			this.connection.close();
		}
		catch (Exception ex) {
			log.debug("Closing the heartbeat's connection of node {} failed: {}", this.nodeId, ex.toString());
		}
	}

}
