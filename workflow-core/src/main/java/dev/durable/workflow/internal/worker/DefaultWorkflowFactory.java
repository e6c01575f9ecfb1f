package dev.durable.workflow.internal.worker;

import java.lang.reflect.Constructor;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.internal.activity.ActivityStubs;
import dev.durable.workflow.internal.registry.ActivityRegistry;

/**
 * Creates workflow instances without Spring: the public constructor with the most
 * parameters, each parameter the durable proxy of a registered activity of that type.
 */
final class DefaultWorkflowFactory {

	private final ActivityRegistry registry;

	private final Map<Class<?>, Object> activityProxies = new ConcurrentHashMap<>();

	DefaultWorkflowFactory(ActivityRegistry registry) {
		this.registry = registry;
	}

	/**
	 * The default workflow factory: constructor injection of registered activities, as
	 * durable proxies.
	 */
	Object instantiate(Class<?> type) {
		Constructor<?>[] constructors = type.getConstructors();
		if (constructors.length == 0) {
			throw new IllegalStateException("Workflow class " + type.getName() + " needs a public constructor");
		}
		Constructor<?> constructor = constructors[0];
		for (Constructor<?> candidate : constructors) {
			if (candidate.getParameterCount() > constructor.getParameterCount()) {
				constructor = candidate;
			}
		}
		Object[] args = new Object[constructor.getParameterCount()];
		Class<?>[] parameterTypes = constructor.getParameterTypes();
		for (int i = 0; i < args.length; i++) {
			args[i] = activityProxy(parameterTypes[i], type);
		}
		try {
			return constructor.newInstance(args);
		}
		catch (java.lang.reflect.InvocationTargetException ex) {
			Throwable target = ex.getTargetException();
			throw (target instanceof RuntimeException re) ? re : new IllegalStateException(target);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Cannot create workflow " + type.getName() + ": " + ex, ex);
		}
	}

	/**
	 * Whether a method of the activity interface runs on a task queue (other nodes may
	 * implement it).
	 */
	private static boolean onTaskQueue(Class<?> type) {
		for (java.lang.reflect.Method method : ActivityRegistry.activityMethods(type)) {
			ActivityMethod annotation = method.getAnnotation(ActivityMethod.class);
			if (annotation != null && !annotation.taskQueue().isBlank()) {
				return true;
			}
		}
		return false;
	}

	/** The durable proxy of the registered activity bean assignable to the type. */
	public Object activityProxy(Class<?> type, Class<?> forWorkflow) {
		return this.activityProxies.computeIfAbsent(type, (t) -> {
			Object bean = this.registry.beanOfType(t);
			if (bean == null && t.isInterface() && ActivityRegistry.activityType(t) == t && onTaskQueue(t)) {
				// implemented on other nodes: its calls go to the task queues its methods
				// name
				return ActivityStubs.declaredStub(t, this.registry.defaults());
			}
			if (bean == null) {
				throw new IllegalStateException(
						((forWorkflow != null) ? "Cannot create workflow " + forWorkflow.getName() + ": no" : "No")
								+ " activity of type " + t.getName() + " is registered (registerActivities)");
			}
			return ActivityStubs.durableProxy(t, bean, this.registry);
		});
	}

}
