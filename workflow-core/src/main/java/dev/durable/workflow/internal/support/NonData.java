package dev.durable.workflow.internal.support;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rule for what cannot be a durable payload: a resource (a stream, a connection, a
 * thread), a handle on work in progress (a future, an iterator) or code (a callback, a
 * class loader). Jackson would write most of them as beans — a {@code Thread}'s name,
 * priority and state — and a payload read back on another node days later would hold
 * nothing of what the value was. Used on declared types at registration and on the values
 * actually encoded, whose runtime class matters when the declared type is {@code Object}.
 */
public final class NonData {

	private static final List<Class<?>> NOT_PAYLOADS = List.of(AutoCloseable.class, Thread.class,
			java.util.stream.BaseStream.class, java.util.Iterator.class, java.util.Spliterator.class,
			java.util.concurrent.Future.class, java.util.concurrent.CompletionStage.class, Runnable.class,
			java.util.concurrent.Callable.class, ClassLoader.class, javax.sql.DataSource.class,
			java.lang.reflect.AccessibleObject.class, java.lang.ref.Reference.class);

	// containers are walked this deep, no deeper: enough for a list of maps of lists, and
	// a bound on cycles
	private static final int MAX_DEPTH = 8;

	private static final ClassValue<String> VERDICTS = new ClassValue<>() {
		@Override
		protected String computeValue(Class<?> type) {
			return classProblem(type, true);
		}
	};

	private NonData() {
	}

	/**
	 * What is wrong with a declared type (its type arguments and array components
	 * included).
	 * @return a description such as {@code "a java.lang.Thread"}, or {@code null} when it
	 * can be data
	 */
	public static String typeProblem(Type type) {
		if (type instanceof ParameterizedType parameterized) {
			for (Type argument : parameterized.getActualTypeArguments()) {
				String inner = typeProblem(argument);
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
			return typeProblem(cls.getComponentType());
		}
		return classProblem(cls, false);
	}

	/**
	 * What is wrong with a value about to be encoded: its own class, and the elements of
	 * the collections, maps, arrays and optionals it is made of (the fields of records
	 * and beans are left to their declared types, checked at registration for handler
	 * signatures only).
	 * @return a description such as {@code "a java.lang.Thread"}, or {@code null} when it
	 * can be data
	 */
	public static String valueProblem(Object value) {
		return valueProblem(value, 0);
	}

	private static String valueProblem(Object value, int depth) {
		if (value == null || depth > MAX_DEPTH) {
			return null;
		}
		String problem = VERDICTS.get(value.getClass());
		if (problem != null) {
			return problem;
		}
		if (value instanceof Collection<?> collection) {
			for (Object element : collection) {
				problem = valueProblem(element, depth + 1);
				if (problem != null) {
					return problem;
				}
			}
		}
		else if (value instanceof Map<?, ?> map) {
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				problem = valueProblem(entry.getKey(), depth + 1);
				if (problem == null) {
					problem = valueProblem(entry.getValue(), depth + 1);
				}
				if (problem != null) {
					return problem;
				}
			}
		}
		else if (value instanceof Object[] array) {
			for (Object element : array) {
				problem = valueProblem(element, depth + 1);
				if (problem != null) {
					return problem;
				}
			}
		}
		else if (value instanceof Optional<?> optional && optional.isPresent()) {
			return valueProblem(optional.get(), depth + 1);
		}
		return null;
	}

	private static String classProblem(Class<?> cls, boolean runtime) {
		for (Class<?> forbidden : NOT_PAYLOADS) {
			if (forbidden.isAssignableFrom(cls)) {
				return "a " + cls.getName();
			}
		}
		if (cls.isInterface() && (cls.isAnnotationPresent(FunctionalInterface.class)
				|| cls.getPackageName().equals("java.util.function"))) {
			return "a function (" + cls.getName() + ")";
		}
		// a lambda or a method reference: a hidden class, whatever interface it
		// implements
		if (runtime && (cls.isHidden() || cls.isSynthetic())) {
			return "a function (" + cls.getName() + ")";
		}
		return null;
	}

}
