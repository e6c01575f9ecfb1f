package dev.durable.docs.engine;

import java.util.concurrent.Callable;
import java.util.function.Supplier;
import javax.sql.DataSource;

import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowInterceptor;
import dev.durable.workflow.engine.WorkflowInterceptor.ActivityCall;
import dev.durable.workflow.engine.WorkflowInterceptor.ClientCall;

/**
 * The statements of the Java block of {@code docs/engine.md}, in a method whose
 * parameters are the variables it uses.
 */
final class EngineGuideSnippets {

	private EngineGuideSnippets() {
	}

	static WorkflowEngine engineWithInterceptor(DataSource dataSource) {
		// @formatter:off
		// snippet:engine-interceptor
		WorkflowEngine engine = WorkflowEngine.builder()
		    .dataSource(dataSource)
		    .interceptor(new WorkflowInterceptor() {
		        @Override
		        public <R> R interceptClient(ClientCall call, Supplier<R> next) {
		            call.headers().put("tenant", Tenant.current());      // stored with a started run
		            return next.get();
		        }

		        @Override
		        public Object interceptActivity(ActivityCall call, Callable<Object> next) throws Exception {
		            try (var scope = Tenant.open(call.headers().get("tenant"))) {
		                return next.call();                             // the activity method
		            }
		        }
		    })
		    .build();
		// end-snippet
		// @formatter:on
		return engine;
	}

}
