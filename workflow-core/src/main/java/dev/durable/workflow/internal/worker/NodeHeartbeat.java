package dev.durable.workflow.internal.worker;

import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.EngineSettings;
import dev.durable.workflow.internal.store.NodeRepository;
import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.spi.EngineHooks;

/**
 * The node's registration and heartbeat. A heartbeat that finds the node declared dead (its row
 * stale: other nodes may have taken its runs and its activity attempts) evicts everything and
 * registers anew, under a new incarnation.
 */
final class NodeHeartbeat implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(NodeHeartbeat.class);

	private final EngineSettings config;

	private final UUID nodeId;

	private final NodeRepository nodes;

	private final EngineHooks hooks;

	private final Supplier<Set<String>> servedTypes;

	private final Runnable onDeclaredDead;

	private volatile long incarnation;

	private volatile boolean running = true;

	/** Set once the node's stop began: it heartbeats on, but never registers anew. */
	private volatile boolean stopping;

	private Thread thread;

	NodeHeartbeat(EngineSettings config, UUID nodeId, NodeRepository nodes, EngineHooks hooks,
			Supplier<Set<String>> servedTypes, Runnable onDeclaredDead) {
		this.config = config;
		this.nodeId = nodeId;
		this.nodes = nodes;
		this.hooks = hooks;
		this.servedTypes = servedTypes;
		this.onDeclaredDead = onDeclaredDead;
	}

	/** Registers the node and starts heartbeating. */
	NodeHeartbeat start() {
		register();
		this.thread = Thread.ofPlatform().daemon().name("durable-heartbeat").start(this::loop);
		return this;
	}

	/** The incarnation the node heartbeats with (what fences its activity claims). */
	long incarnation() {
		return this.incarnation;
	}

	private void register() {
		String name = ManagementFactory.getRuntimeMXBean().getName();
		java.util.Set<String> queues = new java.util.LinkedHashSet<>(this.config.taskQueues());
		this.config.activityTaskQueues().forEach((queue) -> queues.add("activity:" + queue));
		this.incarnation = this.nodes.register(this.nodeId, name, this.config.buildId(), this.servedTypes.get(),
				queues);
	}

	private void loop() {
		while (this.running) {
			try {
				Thread.sleep(this.config.heartbeatInterval().toMillis());
				this.hooks.beforeHeartbeat();
				if (!this.running) {
					return;
				}
				if (!this.nodes.heartbeat(this.nodeId, this.incarnation, this.config.deadAfter().toMillis())) {
					if (this.stopping || !this.running) {
						// the stop releases what is left and unregisters: a node registered anew would
						// outlive the shutdown as a live node that never heartbeats again
						log.warn("Node {} was declared dead while stopping: evicting all runs, heartbeating no more",
								this.nodeId);
						this.onDeclaredDead.run();
						return;
					}
					log.warn("Node {} was declared dead (heartbeat older than {}): evicting all runs and registering"
							+ " anew", this.nodeId, this.config.deadAfter());
					this.onDeclaredDead.run();
					register();
				}
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (RuntimeException ex) {
				log.warn("Heartbeat of node {} failed: {}", this.nodeId, Errors.rootMessage(ex));
			}
		}
	}

	/** The node's stop began: it heartbeats on while it waits, but a node declared dead stops heartbeating. */
	void stopping() {
		this.stopping = true;
	}

	/**
	 * Stops heartbeating and waits for a heartbeat under way (bounded): once this returns, no
	 * heartbeat or registration of the node reaches the database, so the node can unregister.
	 */
	@Override
	public void close() {
		this.stopping = true;
		this.running = false;
		if (this.thread != null) {
			this.thread.interrupt();
		}
		dev.durable.workflow.internal.support.BackgroundThreads.awaitEnded(this.thread);
	}

}
