package dev.durable.workflow.internal.support;

import java.util.ServiceLoader;

import dev.durable.workflow.Promise;
import dev.durable.workflow.activity.ActivityContext;

/**
 * The engine's implementations of what the public API's static entry points need
 * ({@link ActivityContext.Provider}, {@link Promise.Combinators}), found once per
 * interface with {@link ServiceLoader} in the API's own class loader: the API names no
 * engine class, so the engine can implement the API's interfaces without the two
 * depending on each other.
 */
public final class Providers {

	private static final ClassValue<Object> LOADED = new ClassValue<>() {

		@Override
		protected Object computeValue(Class<?> type) {
			return ServiceLoader.load(type, type.getClassLoader())
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("No implementation of " + type.getName()
						+ " on the class path: the workflow-core jar is incomplete"));
		}

	};

	private Providers() {
	}

	public static <T> T of(Class<T> type) {
		return type.cast(LOADED.get(type));
	}

}
