package dev.durable.workflow.internal.activity;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

import org.springframework.cglib.proxy.Enhancer;
import org.springframework.cglib.proxy.Factory;
import org.springframework.cglib.proxy.MethodInterceptor;
import org.springframework.objenesis.SpringObjenesis;

import dev.durable.workflow.ActivityStub;
import dev.durable.workflow.Promise;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.internal.registry.ActivityDefinition;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.runtime.WorkflowContext;
import dev.durable.workflow.internal.runtime.WorkflowThread;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * Activity proxies. Called on a workflow thread, a method is scheduled through the run
 * (recorded, retried, replayed); called anywhere else, the durable bean proxy runs the
 * real method directly.
 */
public final class ActivityStubs {

	private static final SpringObjenesis OBJENESIS = new SpringObjenesis();

	private ActivityStubs() {
	}

	/** A stub for workflow code with explicit options; every call is scheduled. */
	public static <T> T workflowStub(Class<T> type, ActivityOptions options) {
		return type.cast(proxy(type, (method, args) -> {
			if (method.getDeclaringClass() == Object.class) {
				return objectMethod(type, method, args);
			}
			ActivityMethod annotation = method.getAnnotation(ActivityMethod.class);
			String name = ActivityDefinition.typeName(method);
			// the method's task queue applies unless the stub's options name one
			ActivityOptions effective = (options.taskQueue() == null && annotation != null
					&& !annotation.taskQueue().isBlank())
							? options.toBuilder().taskQueue(annotation.taskQueue()).build() : options;
			return schedule(WorkflowThread.context(), name, method, args, effective);
		}));
	}

	/**
	 * A stub for workflow code whose every call runs as a local activity in the calling
	 * task (see {@code Workflows.localActivities}); the options' task queue does not
	 * apply.
	 */
	public static <T> T localStub(Class<T> type, ActivityOptions options) {
		return type.cast(proxy(type, (method, args) -> {
			if (method.getDeclaringClass() == Object.class) {
				return objectMethod(type, method, args);
			}
			String name = ActivityDefinition.typeName(method);
			WorkflowContext context = WorkflowThread.context();
			return context.executeLocalActivity(name, pack(context, name, method, args), method.getGenericReturnType(),
					options);
		}));
	}

	/** Wraps a registered activity bean: durable inside workflow code, direct outside. */
	public static Object durableProxy(Class<?> type, Object target, ActivityRegistry registry) {
		return proxy(type, (method, args) -> {
			ActivityDefinition definition = registry.find(method);
			if (definition == null || !WorkflowThread.isWorkflowThread()) {
				try {
					return method.invoke(target, args);
				}
				catch (InvocationTargetException ex) {
					throw ex.getTargetException();
				}
			}
			return schedule(WorkflowThread.context(), definition.name(), method, args, definition.options());
		});
	}

	/**
	 * A stub of an {@code @Activity} interface with no implementation on this node (it
	 * runs on a task queue other nodes serve): workflow code schedules its methods with
	 * their {@code @ActivityMethod} options over the defaults; called anywhere else it
	 * fails.
	 */
	public static Object declaredStub(Class<?> type, ActivityOptions defaults) {
		java.util.Map<Method, ActivityDefinition> definitions = new java.util.concurrent.ConcurrentHashMap<>();
		return proxy(type, (method, args) -> {
			if (method.getDeclaringClass() == Object.class) {
				return objectMethod(type, method, args);
			}
			ActivityDefinition definition = definitions.computeIfAbsent(method,
					(m) -> ActivityDefinition.of(null, m, defaults));
			if (!WorkflowThread.isWorkflowThread()) {
				throw new IllegalStateException("Activity " + definition.name() + " has no implementation on this node"
						+ ((definition.options().taskQueue() != null)
								? " (it runs on task queue '" + definition.options().taskQueue() + "')" : ""));
			}
			return schedule(WorkflowThread.context(), definition.name(), method, args, definition.options());
		});
	}

	/**
	 * A stub that calls an activity by its type name (see
	 * {@link dev.durable.workflow.ActivityStub}).
	 */
	public static ActivityStub untyped(String activityType, ActivityOptions options) {
		if (activityType == null || activityType.isBlank()) {
			throw new IllegalArgumentException("An activity type name is required");
		}
		java.util.Objects.requireNonNull(options, "options");
		return new ActivityStub() {

			@Override
			@SuppressWarnings("unchecked")
			public <R> R execute(Class<R> resultType, Object... args) {
				return (R) boxed(resultType).cast(execute((java.lang.reflect.Type) resultType, args));
			}

			@Override
			public Object execute(java.lang.reflect.Type resultType, Object... args) {
				return start(resultType, args).get();
			}

			@Override
			@SuppressWarnings("unchecked")
			public <R> Promise<R> executeAsync(Class<R> resultType, Object... args) {
				return (Promise<R>) start(resultType, args);
			}

			private Promise<Object> start(java.lang.reflect.Type resultType, Object[] args) {
				WorkflowContext context = WorkflowThread.context();
				Object[] values = (args != null) ? args : new Object[0];
				List<byte[]> parts = new ArrayList<>(values.length);
				for (int i = 0; i < values.length; i++) {
					parts.add(context.payloads()
						.encode(values[i], (values[i] != null) ? values[i].getClass() : Object.class,
								"argument " + i + " of activity " + activityType));
				}
				return context.scheduleActivity(activityType, InternalJson.pack(parts), resultType, options);
			}

		};
	}

	/**
	 * The wrapper class of a primitive type (the result of {@code execute(int.class)} is
	 * an Integer).
	 */
	private static Class<?> boxed(Class<?> type) {
		return java.lang.invoke.MethodType.methodType(type).wrap().returnType();
	}

	private static Object schedule(WorkflowContext context, String name, Method method, Object[] args,
			ActivityOptions options) {
		return context.scheduleActivity(name, pack(context, name, method, args), method.getGenericReturnType(), options)
			.get();
	}

	/** The call's arguments, encoded as the method's parameter types and packed. */
	private static byte[] pack(WorkflowContext context, String name, Method method, Object[] args) {
		Object[] values = (args != null) ? args : new Object[0];
		List<byte[]> parts = new ArrayList<>(values.length);
		for (int i = 0; i < values.length; i++) {
			parts.add(context.payloads()
				.encode(values[i], method.getGenericParameterTypes()[i], "argument " + i + " of activity " + name));
		}
		return InternalJson.pack(parts);
	}

	private static Object objectMethod(Class<?> type, Method method, Object[] args) {
		return switch (method.getName()) {
			case "toString" -> "ActivityStub[" + type.getName() + "]";
			case "hashCode" -> System.identityHashCode(type);
			case "equals" -> args[0] == null ? false : (args[0] == (Object) type);
			default -> throw new UnsupportedOperationException(method.getName());
		};
	}

	@FunctionalInterface
	private interface Call {

		Object invoke(Method method, Object[] args) throws Throwable;

	}

	private static Object proxy(Class<?> type, Call call) {
		if (type.isInterface()) {
			InvocationHandler handler = (proxy, method, args) -> call.invoke(method, args);
			return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, handler);
		}
		Enhancer enhancer = new Enhancer();
		enhancer.setSuperclass(type);
		enhancer.setClassLoader(type.getClassLoader());
		enhancer.setCallbackType(MethodInterceptor.class);
		Class<?> proxyClass = enhancer.createClass();
		Object proxy = OBJENESIS.newInstance(proxyClass);
		((Factory) proxy).setCallback(0, (MethodInterceptor) (obj, method, args, methodProxy) -> {
			if (method.getDeclaringClass() == Object.class && !method.getName().equals("toString")) {
				return methodProxy.invokeSuper(obj, args);
			}
			return call.invoke(method, args);
		});
		return proxy;
	}

}
