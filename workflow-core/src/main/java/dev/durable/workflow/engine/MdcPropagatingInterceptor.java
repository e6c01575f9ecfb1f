package dev.durable.workflow.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

/**
 * Carries chosen MDC entries of the thread that starts a run (a tenant, a user, a request
 * id) to every workflow task and activity attempt of the run, on any node: the start
 * stores them in its headers (as {@code mdc.<key>}), and they are put in the MDC around
 * each piece of work, the thread's own entries restored afterwards. In Spring Boot, set
 * {@code durable.workflow.propagation.mdc-keys}.
 */
public final class MdcPropagatingInterceptor implements WorkflowInterceptor {

	private static final String PREFIX = "mdc.";

	private final List<String> keys;

	/**
	 * @param keys the MDC keys to carry
	 */
	public MdcPropagatingInterceptor(List<String> keys) {
		this.keys = List.copyOf(keys);
	}

	@Override
	public <R> R interceptClient(ClientCall call, Supplier<R> next) {
		if (call.operation().starts()) {
			for (String key : this.keys) {
				String value = MDC.get(key);
				if (value != null) {
					call.headers().put(PREFIX + key, value);
				}
			}
		}
		return next.get();
	}

	@Override
	public void interceptWorkflowTask(WorkflowTaskCall call, Runnable next) {
		List<Runnable> restore = apply(call.headers());
		try {
			next.run();
		}
		finally {
			restore.forEach(Runnable::run);
		}
	}

	@Override
	public @Nullable Object interceptActivity(ActivityCall call, Callable<@Nullable Object> next) throws Exception {
		List<Runnable> restore = apply(call.headers());
		try {
			return next.call();
		}
		finally {
			restore.forEach(Runnable::run);
		}
	}

	/** Puts the carried entries in the MDC; returns what puts back the thread's own. */
	private List<Runnable> apply(Map<String, String> headers) {
		List<Runnable> restore = new ArrayList<>();
		for (String key : this.keys) {
			String value = headers.get(PREFIX + key);
			if (value != null) {
				String previous = MDC.get(key);
				MDC.put(key, value);
				restore.add((previous != null) ? () -> MDC.put(key, previous) : () -> MDC.remove(key));
			}
		}
		return restore;
	}

}
