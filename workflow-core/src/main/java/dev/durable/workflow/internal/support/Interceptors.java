package dev.durable.workflow.internal.support;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.engine.WorkflowEngineListener;
import dev.durable.workflow.engine.WorkflowInterceptor;
import dev.durable.workflow.engine.WorkflowInterceptor.ClientCall;
import dev.durable.workflow.engine.WorkflowInterceptor.ClientOperation;

/**
 * The engine's interceptors as one chain, the first registered outermost. With none (the
 * common case) each call is the body alone, with no map or record made.
 */
public final class Interceptors {

	/** No interceptor. */
	public static final Interceptors NONE = new Interceptors(List.of());

	private final List<WorkflowInterceptor> chain;

	public Interceptors(List<WorkflowInterceptor> chain) {
		this.chain = List.copyOf(chain);
	}

	public boolean isEmpty() {
		return this.chain.isEmpty();
	}

	/**
	 * A client call through the chain.
	 * @param body the call, given the headers the interceptors set (empty without
	 * interceptors)
	 */
	public <R> R client(ClientOperation operation, String workflowType, @Nullable String workflowId,
			@Nullable String name, java.util.function.Function<Map<String, String>, R> body) {
		if (this.chain.isEmpty()) {
			return body.apply(Map.of());
		}
		ClientCall call = new ClientCall(operation, workflowType, workflowId, name, new LinkedHashMap<>());
		return client(0, call, () -> body.apply(Map.copyOf(call.headers())));
	}

	private <R> R client(int index, ClientCall call, Supplier<R> body) {
		if (index == this.chain.size()) {
			return body.get();
		}
		return this.chain.get(index).interceptClient(call, () -> client(index + 1, call, body));
	}

	/** A workflow task through the chain. */
	public void workflowTask(WorkflowEngineListener.Run run, Map<String, String> headers, Runnable body) {
		if (this.chain.isEmpty()) {
			body.run();
			return;
		}
		workflowTask(0, new WorkflowInterceptor.WorkflowTaskCall(run, Map.copyOf(headers)), body);
	}

	/**
	 * A workflow task that yields a value through the chain; {@code null} when an
	 * interceptor did not let it run.
	 */
	public <T> @Nullable T workflowTask(WorkflowEngineListener.Run run, Map<String, String> headers, Supplier<T> body) {
		AtomicReference<T> result = new AtomicReference<>();
		workflowTask(run, headers, () -> result.set(body.get()));
		return result.get();
	}

	private void workflowTask(int index, WorkflowInterceptor.WorkflowTaskCall call, Runnable body) {
		if (index == this.chain.size()) {
			body.run();
			return;
		}
		this.chain.get(index).interceptWorkflowTask(call, () -> workflowTask(index + 1, call, body));
	}

	/** An activity attempt through the chain. */
	public @Nullable Object activity(ActivityInfo activity, Map<String, String> headers,
			Callable<@Nullable Object> body) throws Exception {
		if (this.chain.isEmpty()) {
			return body.call();
		}
		return activity(0, new WorkflowInterceptor.ActivityCall(activity, Map.copyOf(headers)), body);
	}

	private @Nullable Object activity(int index, WorkflowInterceptor.ActivityCall call, Callable<@Nullable Object> body)
			throws Exception {
		if (index == this.chain.size()) {
			return body.call();
		}
		return this.chain.get(index).interceptActivity(call, () -> activity(index + 1, call, body));
	}

}
