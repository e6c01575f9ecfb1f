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
 * A worker node among the others: its registration, and the heartbeat that keeps it alive. A
 * heartbeat that finds the node declared dead (another node may have taken its runs) evicts
 * everything it holds and registers it anew, as a new incarnation.
 */
final class NodeHeartbeat implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(NodeHeartbeat.class);

	private final EngineSettings config;

	private final UUID nodeId;

	private final NodeRepository nodes;

	private final EngineHooks hooks;

	private final Supplier<Set<String>> servedTypes;

	private final Runnable evictAll;

	private volatile long incarnation;

	private volatile boolean running = true;

	private Thread thread;

	NodeHeartbeat(EngineSettings config, UUID nodeId, NodeRepository nodes, EngineHooks hooks,
			Supplier<Set<String>> servedTypes, Runnable evictAll) {
		this.config = config;
		this.nodeId = nodeId;
		this.nodes = nodes;
		this.hooks = hooks;
		this.servedTypes = servedTypes;
		this.evictAll = evictAll;
	}

	/** Registers the node and starts its heartbeat. */
	NodeHeartbeat start() {
		register();
		this.thread = Thread.ofPlatform().daemon().name("durable-heartbeat").start(this::loop);
		return this;
	}

	private void register() {
		String name = ManagementFactory.getRuntimeMXBean().getName();
		this.incarnation = this.nodes.register(this.nodeId, name, this.config.buildId(), this.servedTypes.get(),
				this.config.taskQueues());
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
					log.warn("Node {} was declared dead (heartbeat older than {}): evicting all runs and registering"
							+ " anew", this.nodeId, this.config.deadAfter());
					this.evictAll.run();
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

	@Override
	public void close() {
		this.running = false;
		if (this.thread != null) {
			this.thread.interrupt();
		}
	}

}
