package dev.durable.workflow.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of the durable workflow engine.
 */
@ConfigurationProperties("durable.workflow")
public class DurableWorkflowProperties {

	/**
	 * Namespace of every run this application starts and serves. Applications that share
	 * a database but not their workflows use different namespaces.
	 */
	private String namespace = "default";

	/**
	 * Database schema of the engine's tables. Created and upgraded at startup.
	 */
	private String schema = "durable";

	/**
	 * Maximum size of one serialized payload (input, result, signal, activity argument).
	 */
	private DataSize maxPayloadSize = DataSize.ofMegabytes(2);

	/**
	 * How long closed runs, their history and deduplication records (signal idempotency
	 * keys, update ids) are kept. Worker nodes then delete them in small batches. Zero or
	 * negative keeps them forever.
	 */
	private Duration retention = Duration.ofDays(7);

	/**
	 * Flow-control queues this node declares, by name: workflow starts join one with
	 * StartOptions.queue, and activities on the activity task queue of the same name are
	 * limited by it. Each has concurrency, per-node-concurrency, rate-limit, rate-period
	 * and partition-concurrency. Declare a queue with the same limits on every node.
	 */
	private final Map<String, DurableWorkflowQueueProperties> queues = new LinkedHashMap<>();

	@NestedConfigurationProperty
	private final DurableWorkflowWorkerProperties worker = new DurableWorkflowWorkerProperties();

	@NestedConfigurationProperty
	private final DurableWorkflowNodeProperties node = new DurableWorkflowNodeProperties();

	@NestedConfigurationProperty
	private final DurableWorkflowEmbeddedPostgresProperties embeddedPostgres = new DurableWorkflowEmbeddedPostgresProperties();

	@NestedConfigurationProperty
	private final DurableWorkflowWebProperties web = new DurableWorkflowWebProperties();

	@NestedConfigurationProperty
	private final DurableWorkflowHealthProperties health = new DurableWorkflowHealthProperties();

	@NestedConfigurationProperty
	private final DurableWorkflowHistoryProperties history = new DurableWorkflowHistoryProperties();

	@NestedConfigurationProperty
	private final DurableWorkflowDashboardProperties dashboard = new DurableWorkflowDashboardProperties();

	@NestedConfigurationProperty
	private final DurableWorkflowPropagationProperties propagation = new DurableWorkflowPropagationProperties();

	@NestedConfigurationProperty
	private final DurableWorkflowDirectProperties direct = new DurableWorkflowDirectProperties();

	@NestedConfigurationProperty
	private final DurableWorkflowActivityProperties activity = new DurableWorkflowActivityProperties();

	public DurableWorkflowActivityProperties getActivity() {
		return this.activity;
	}

	public DurableWorkflowDirectProperties getDirect() {
		return this.direct;
	}

	public DurableWorkflowPropagationProperties getPropagation() {
		return this.propagation;
	}

	@NestedConfigurationProperty
	private final DurableWorkflowPayloadProperties payload = new DurableWorkflowPayloadProperties();

	public DurableWorkflowPayloadProperties getPayload() {
		return this.payload;
	}

	public DurableWorkflowHistoryProperties getHistory() {
		return this.history;
	}

	public DurableWorkflowDashboardProperties getDashboard() {
		return this.dashboard;
	}

	public String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(String namespace) {
		this.namespace = namespace;
	}

	public String getSchema() {
		return this.schema;
	}

	public void setSchema(String schema) {
		this.schema = schema;
	}

	public DataSize getMaxPayloadSize() {
		return this.maxPayloadSize;
	}

	public void setMaxPayloadSize(DataSize maxPayloadSize) {
		this.maxPayloadSize = maxPayloadSize;
	}

	public Duration getRetention() {
		return this.retention;
	}

	public void setRetention(Duration retention) {
		this.retention = retention;
	}

	public Map<String, DurableWorkflowQueueProperties> getQueues() {
		return this.queues;
	}

	public DurableWorkflowWorkerProperties getWorker() {
		return this.worker;
	}

	public DurableWorkflowNodeProperties getNode() {
		return this.node;
	}

	public DurableWorkflowEmbeddedPostgresProperties getEmbeddedPostgres() {
		return this.embeddedPostgres;
	}

	public DurableWorkflowWebProperties getWeb() {
		return this.web;
	}

	public DurableWorkflowHealthProperties getHealth() {
		return this.health;
	}

}
