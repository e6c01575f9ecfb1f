package dev.durable.docs.activities.plain;

import javax.sql.DataSource;

import dev.durable.workflow.activity.TransactionIsolation;
import dev.durable.workflow.engine.WorkflowEngine;

/** The engine of the guide's transactional activity without Spring. */
final class TransactionalWithoutSpring {

	private TransactionalWithoutSpring() {
	}

	static WorkflowEngine start(DataSource dataSource) {
		// @formatter:off
		// snippet:activities-transactional-without-spring part 1
		WorkflowEngine engine = WorkflowEngine.builder()
		    .dataSource(dataSource)
		    .transactionalActivities(TransactionIsolation.READ_COMMITTED, 10)  // the defaults
		    // .activityTransactionManager(myJpaTransactionManager)            // optional
		    .register(OrderWorkflow.class).registerActivities(new Reservations(dataSource))
		    .build().start();
		// end-snippet
		// @formatter:on
		return engine;
	}

}
