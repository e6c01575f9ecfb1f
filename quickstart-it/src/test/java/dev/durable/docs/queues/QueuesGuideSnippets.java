package dev.durable.docs.queues;

import java.time.Duration;
import javax.sql.DataSource;

import dev.durable.workflow.client.DebounceOptions;
import dev.durable.workflow.client.DebouncedStart;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.ExcessStrategy;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * The statements of the Java blocks of {@code docs/queues.md}, each in a method whose
 * parameters are the variables it uses.
 */
@SuppressWarnings("unused")
final class QueuesGuideSnippets {

	private QueuesGuideSnippets() {
	}

	static WorkflowEngine queue(DataSource ds, WorkflowClient client, Payment payment) {
		// @formatter:off
		// snippet:queues-flow-control
		WorkflowEngine engine = WorkflowEngine.builder().dataSource(ds)
		    .register(PaymentWorkflow.class)
		    .queue(QueueDefinition.named("payments")
		        .withConcurrency(10)                          // at most 10 running, cluster-wide
		        .withPerNodeConcurrency(4)                    // at most 4 of them on one node
		        .withRateLimit(50, Duration.ofSeconds(1))     // at most 50 admitted in any 1 s, cluster-wide
		        .withPartitionConcurrency(2))                 // at most 2 running per partition key
		    .build().start();

		client.start(PaymentWorkflow::run, payment, StartOptions.builder()
		    .workflowId("payment-" + payment.id())
		    .queue("payments")
		    .priority(payment.urgent() ? 10 : 0)              // higher is admitted first; default 0
		    .partitionKey(payment.customerId())               // the fairness key (a tenant, a customer)
		    .build());
		// end-snippet
		// @formatter:on
		return engine;
	}

	static QueueDefinition flowControl() {
		// @formatter:off
		// snippet:queues-fairness-excess-timeout
		QueueDefinition deploys = QueueDefinition.named("deploys")
		    .withConcurrency(20)
		    .withPartitionConcurrency(1)                          // one deploy per environment at a time
		    .withFairness()                                       // round-robin across environments
		    .withPartitionWeight("production", 3)                 // 3 admissions per turn for 1 of the others
		    .withPartitionExcess(ExcessStrategy.CANCEL_OLDEST_RUNNING)  // a newer deploy cancels the running one
		    .withAdmissionTimeout(Duration.ofMinutes(30));        // waited 30 min: closes TIMED_OUT instead
		// end-snippet
		// @formatter:on
		return deploys;
	}

	static DebouncedStart debounce(WorkflowClient client, CatalogChange catalogChange, long catalogId) {
		// @formatter:off
		// snippet:queues-debounce
		DebouncedStart call = client.debounce(ReindexWorkflow::run, catalogChange,
		    DebounceOptions.of("reindex-" + catalogId, Duration.ofSeconds(10), Duration.ofMinutes(2))
		        .withStartOptions(StartOptions.builder().taskQueue("batch").build()));   // optional
		call.workflowId();   // the id the burst's run will have (one per burst)
		call.startsAt();     // when it starts unless another call moves it
		call.calls();        // calls collapsed so far, this one included
		// once started: client.handle(call.workflowId())
		// end-snippet
		// @formatter:on
		return call;
	}

}
