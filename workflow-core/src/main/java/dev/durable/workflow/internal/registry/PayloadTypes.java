package dev.durable.workflow.internal.registry;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;

/**
 * Refuses, at registration, parameter and return types that cannot be durable payloads: every
 * argument and result is recorded as JSON and read back on another node, maybe days later, so a
 * stream, a connection, a thread or a callback cannot be one.
 */
final class PayloadTypes {

	private static final List<Class<?>> NOT_PAYLOADS = List.of(AutoCloseable.class, Thread.class,
			java.util.stream.BaseStream.class, java.util.Iterator.class, java.util.concurrent.Future.class,
			java.util.concurrent.CompletionStage.class, Runnable.class, java.util.concurrent.Callable.class,
			ClassLoader.class, javax.sql.DataSource.class, java.lang.reflect.Method.class);

	private PayloadTypes() {
	}

	/**
	 * Checks every parameter and the return type of a method.
	 * @throws IllegalArgumentException naming the method, the position and the type
	 */
	static void check(Method method, String role) {
		Type[] parameters = method.getGenericParameterTypes();
		for (int i = 0; i < parameters.length; i++) {
			String problem = problem(parameters[i]);
			if (problem != null) {
				throw new IllegalArgumentException(role + " " + method.toGenericString() + ": parameter " + (i + 1)
						+ " is " + problem + ", which cannot be a durable payload (arguments are recorded as JSON);"
						+ " pass data (a record, bytes) or a reference (an id, a path, a URL)");
			}
		}
		String problem = problem(method.getGenericReturnType());
		if (problem != null) {
			throw new IllegalArgumentException(role + " " + method.toGenericString() + " returns " + problem
					+ ", which cannot be a durable payload (results are recorded as JSON)");
		}
	}

	private static String problem(Type type) {
		if (type instanceof ParameterizedType parameterized) {
			for (Type argument : parameterized.getActualTypeArguments()) {
				String inner = problem(argument);
				if (inner != null) {
					return inner;
				}
			}
			type = parameterized.getRawType();
		}
		if (!(type instanceof Class<?> cls)) {
			return null;
		}
		if (cls.isArray()) {
			return problem(cls.getComponentType());
		}
		for (Class<?> forbidden : NOT_PAYLOADS) {
			if (forbidden.isAssignableFrom(cls)) {
				return "a " + cls.getName();
			}
		}
		if (cls.isInterface() && (cls.isAnnotationPresent(FunctionalInterface.class)
				|| cls.getPackageName().equals("java.util.function"))) {
			return "a function (" + cls.getName() + ")";
		}
		return null;
	}

}
