package dev.durable.workflow.autoconfigure;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.function.Supplier;

import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * The client beans: proxies that look their target up on each call. Creating them does
 * not create the engine, so activity beans (which the engine needs) may depend on the
 * clients, directly or through other beans, without a dependency cycle.
 */
final class LazyClients {

	private LazyClients() {
	}

	/** The {@link WorkflowClient} bean: the engine's client. */
	static WorkflowClient workflowClient(Supplier<WorkflowEngine> engine) {
		return of(WorkflowClient.class, () -> engine.get().client(),
				"WorkflowClient (the WorkflowEngine bean's client)");
	}

	/**
	 * The {@link ActivityCompletionClient} bean: the one of the {@link WorkflowClient}
	 * bean.
	 */
	static ActivityCompletionClient activityCompletionClient(Supplier<WorkflowClient> client) {
		return of(ActivityCompletionClient.class, () -> client.get().activityCompletion(),
				"ActivityCompletionClient (the WorkflowClient bean's)");
	}

	private static <T> T of(Class<T> type, Supplier<T> target, String description) {
		return type
			.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (proxy, method, args) -> {
				if (method.getDeclaringClass() == Object.class) {
					return switch (method.getName()) {
						case "equals" -> proxy == args[0];
						case "hashCode" -> System.identityHashCode(proxy);
						default -> description;
					};
				}
				try {
					return method.invoke(target.get(), args);
				}
				catch (InvocationTargetException ex) {
					throw ex.getTargetException();
				}
			}));
	}

}
