package dev.durable.workflow.autoconfigure;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.function.Supplier;

import dev.durable.workflow.WorkflowEngine;
import dev.durable.workflow.client.WorkflowClient;

/**
 * The {@link WorkflowClient} bean: the engine's client, looked up on each call. Creating it does
 * not create the engine, so activity beans (which the engine needs) may depend on the client,
 * directly or through other beans, without a dependency cycle.
 */
final class LazyWorkflowClient {

	private LazyWorkflowClient() {
	}

	static WorkflowClient of(Supplier<WorkflowEngine> engine) {
		return (WorkflowClient) Proxy.newProxyInstance(WorkflowClient.class.getClassLoader(),
				new Class<?>[] { WorkflowClient.class }, (proxy, method, args) -> {
					if (method.getDeclaringClass() == Object.class) {
						return switch (method.getName()) {
							case "equals" -> proxy == args[0];
							case "hashCode" -> System.identityHashCode(proxy);
							default -> "WorkflowClient (the WorkflowEngine bean's client)";
						};
					}
					try {
						return method.invoke(engine.get().client(), args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getTargetException();
					}
				});
	}

}
