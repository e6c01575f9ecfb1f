package dev.durable.workflow.internal.registry;

import java.lang.reflect.Method;
import java.lang.reflect.Type;

import dev.durable.workflow.internal.support.NonData;

/**
 * Refuses, at registration, parameter and return types that cannot be durable payloads:
 * every argument and result is recorded as JSON and read back on another node, maybe days
 * later, so a stream, a connection, a thread or a callback cannot be one (the rule is
 * {@link NonData}'s).
 */
final class PayloadTypes {

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
		return NonData.typeProblem(type);
	}

}
