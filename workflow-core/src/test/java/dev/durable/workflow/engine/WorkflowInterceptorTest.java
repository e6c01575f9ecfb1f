package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowInterceptor.ClientOperation;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Interceptors wrap client calls, workflow tasks and activity attempts; the headers a
 * start's interceptor sets are stored with the run and reach its tasks and activities on
 * any node, inline or on a task queue, its children and its continued runs, after a
 * restart too.
 */
class WorkflowInterceptorTest {

	/** The caller's context the interceptor carries, like a tenant or a trace id. */
	static final ThreadLocal<String> TENANT = new ThreadLocal<>();

	/**
	 * What each intercepted piece of work saw: kind, name, tenant header, tenant current.
	 */
	static final List<String> SEEN = new CopyOnWriteArrayList<>();

	private final Engines engines = new Engines();

	@BeforeEach
	void clear() {
		SEEN.clear();
		TENANT.remove();
	}

	@AfterEach
	void close() {
		this.engines.close();
	}

	/**
	 * Puts the caller's tenant in the headers of a start; makes the run's tenant current
	 * around its work.
	 */
	static final class TenantInterceptor implements WorkflowInterceptor {

		@Override
		public <R> R interceptClient(ClientCall call, Supplier<R> next) {
			if (TENANT.get() != null) {
				call.headers().put("tenant", TENANT.get());
			}
			SEEN.add("client " + call.operation() + " " + call.workflowType() + " " + call.name());
			return next.get();
		}

		@Override
		public void interceptWorkflowTask(WorkflowTaskCall call, Runnable next) {
			String previous = TENANT.get();
			TENANT.set(call.headers().get("tenant"));
			try {
				SEEN.add("task " + call.run().workflowType() + " " + call.headers().get("tenant"));
				next.run();
			}
			finally {
				TENANT.set(previous);
			}
		}

		@Override
		public Object interceptActivity(ActivityCall call, Callable<Object> next) throws Exception {
			String previous = TENANT.get();
			TENANT.set(call.headers().get("tenant"));
			try {
				return next.call();
			}
			finally {
				TENANT.set(previous);
			}
		}

	}

	@Activity
	public interface Tenants {

		/** Reads the tenant the interceptor made current around the attempt. */
		String whoAmI(String step);

		@ActivityMethod(taskQueue = "remote")
		String whoAmIRemotely(String step);

	}

	public static class TenantActivities implements Tenants {

		@Override
		public String whoAmI(String step) {
			SEEN.add("activity " + step + " " + TENANT.get());
			return step + "=" + TENANT.get();
		}

		@Override
		public String whoAmIRemotely(String step) {
			return whoAmI(step);
		}

	}

	@Workflow("tenant-parent")
	public static class ParentWorkflow {

		private final Tenants tenants;

		private boolean go;

		public ParentWorkflow(Tenants tenants) {
			this.tenants = tenants;
		}

		@SignalMethod
		public void go() {
			this.go = true;
		}

		@QueryMethod
		public boolean waiting() {
			return !this.go;
		}

		@WorkflowRun
		public String run(Integer round) {
			String inline = this.tenants.whoAmI("inline" + round);
			if (round == 1) {
				Workflows.await(() -> this.go);
				String remote = this.tenants.whoAmIRemotely("remote");
				String child = Workflows.executeChild(ChildWorkflow::run, "child", ChildOptions.DEFAULT);
				Workflows.continueAsNew(2);
				return inline + " " + remote + " " + child;
			}
			return inline;
		}

	}

	@Workflow("tenant-child")
	public static class ChildWorkflow {

		private final Tenants tenants;

		public ChildWorkflow(Tenants tenants) {
			this.tenants = tenants;
		}

		@WorkflowRun
		public String run(String step) {
			return this.tenants.whoAmI(step);
		}

	}

	private WorkflowEngine.Builder node(WorkflowInterceptor... interceptors) {
		WorkflowEngine.Builder builder = this.engines.builder()
			.register(ParentWorkflow.class, ChildWorkflow.class)
			.registerActivities(new TenantActivities());
		for (WorkflowInterceptor interceptor : interceptors) {
			builder.interceptor(interceptor);
		}
		return builder;
	}

	@Test
	void theStartsHeadersReachEveryTaskAndActivityOfTheRunItsChildAndItsContinuedRunOnAnyNode() {
		WorkflowEngine first = this.engines.start(node(new TenantInterceptor()));
		TENANT.set("acme");
		WorkflowHandle<String> handle = first.client().start(ParentWorkflow::run, 1, StartOptions.withId("tenant-1"));
		TENANT.remove();
		await().until(() -> SEEN.contains("activity inline1 acme"));
		// another node takes the run over: it reads the headers from the database
		first.shutdown();
		WorkflowEngine second = this.engines.start(node(new TenantInterceptor()));
		this.engines.start(this.engines.builder()
			.runWorkflows(false)
			.activityTaskQueues("remote")
			.registerActivities(new TenantActivities())
			.interceptor(new TenantInterceptor()));
		assertThat(second.client().handle("tenant-1").query(ParentWorkflow::waiting)).isTrue();
		second.client().handle("tenant-1").signal(ParentWorkflow::go);
		// the result through a serving node: the first, stopped, is not told when the run
		// closes on the second
		assertThat(second.client().handle("tenant-1", String.class).result(Duration.ofSeconds(30)))
			.isEqualTo("inline2=acme");
		assertThat(SEEN).contains("client START tenant-parent null", "client SIGNAL tenant-parent go",
				"client QUERY tenant-parent waiting", "activity inline1 acme", "activity remote acme",
				"activity child acme", "activity inline2 acme", "task tenant-parent acme", "task tenant-child acme");
		assertThat(SEEN).filteredOn((seen) -> seen.startsWith("task") || seen.startsWith("activity"))
			.allSatisfy((seen) -> assertThat(seen).endsWith("acme"));
		Engines.assertReplays(second, handle.runId());
	}

	@Test
	void interceptorsNestInTheOrderAddedAndListenersObserveInsideThem() {
		List<String> order = new CopyOnWriteArrayList<>();
		WorkflowInterceptor outer = new Nesting("outer", order);
		WorkflowInterceptor inner = new Nesting("inner", order);
		WorkflowEngine engine = this.engines.start(node(outer, inner).listener(new WorkflowEngineListener() {

			@Override
			public Execution activityStarted(ActivityInfo activity, Duration scheduleToStart) {
				order.add("listener " + TENANT.get());
				return Execution.NONE;
			}

		}));
		assertThat(engine.client().start(ChildWorkflow::run, "alone", StartOptions.withId("tenant-2")).result())
			.isEqualTo("alone=inner");
		assertThat(order).containsSubsequence("client outer in", "client inner in", "client inner out",
				"client outer out");
		assertThat(order).containsSubsequence("activity outer in", "activity inner in", "listener inner",
				"activity inner out", "activity outer out");
	}

	@Test
	void theFirstTaskOfAnEagerStartRunsInsideTheWorkflowTaskInterceptors() {
		List<String> order = new CopyOnWriteArrayList<>();
		WorkflowEngine engine = this.engines.start(node(new Nesting("outer", order), new Nesting("inner", order)));
		String caller = Thread.currentThread().getName();
		// started on this node and not in a transaction: the first task runs in the start
		// call, on this thread
		assertThat(engine.client().start(ChildWorkflow::run, "eager", StartOptions.withId("tenant-6")).result())
			.isEqualTo("eager=inner");
		assertThat(order).containsSubsequence("client outer in", "client inner in", "task outer in " + caller,
				"task inner in " + caller, "task inner out", "task outer out", "client inner out", "client outer out");
	}

	@Test
	void cancelAndTerminateCallsAreIntercepted() {
		WorkflowEngine engine = this.engines.start(node(new TenantInterceptor()));
		engine.client().start(ParentWorkflow::run, 1, StartOptions.withId("tenant-3")).cancel("enough");
		engine.client().start(ParentWorkflow::run, 1, StartOptions.withId("tenant-5")).terminate("really");
		assertThat(SEEN).contains("client CANCEL tenant-parent null", "client TERMINATE tenant-parent null");
	}

	@Test
	void aStartWithoutHeadersStoresNoChain() {
		WorkflowEngine engine = this.engines.start(node(new TenantInterceptor()));
		WorkflowHandle<String> handle = engine.client()
			.start(ChildWorkflow::run, "plain", StartOptions.withId("tenant-4"));
		assertThat(handle.result()).isEqualTo("plain=null");
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".run_payload WHERE options IS NOT NULL",
					Integer.class))
			.isZero();
		assertThat(ClientOperation.SIGNAL_WITH_START.starts()).isTrue();
		assertThat(ClientOperation.SIGNAL.starts()).isFalse();
	}

	@Test
	void aClientInterceptorThatThrowsFailsTheCallAndNothingIsStored() {
		WorkflowEngine engine = this.engines.start(node(new WorkflowInterceptor() {

			@Override
			public <R> R interceptClient(ClientCall call, Supplier<R> next) {
				throw new IllegalStateException("no tenant");
			}

		}));
		org.assertj.core.api.Assertions
			.assertThatThrownBy(() -> engine.client().start(ChildWorkflow::run, "x", StartOptions.withId("tenant-6")))
			.hasMessage("no tenant");
		assertThat(this.engines.count("workflow_run")).isZero();
	}

	@Test
	void anActivityInterceptorThatThrowsFailsTheAttemptWhichIsRetried() {
		java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
		WorkflowEngine engine = this.engines.start(node(new WorkflowInterceptor() {

			@Override
			public Object interceptActivity(ActivityCall call, Callable<Object> next) throws Exception {
				if (calls.incrementAndGet() == 1) {
					throw new IllegalStateException("not yet");
				}
				return next.call();
			}

		}));
		WorkflowHandle<String> handle = engine.client().start(ChildWorkflow::run, "y", StartOptions.withId("tenant-7"));
		await().until(() -> calls.get() == 1);
		this.engines.clock.advance(Duration.ofSeconds(2)); // past the first retry's
															// backoff
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("y=null");
		assertThat(calls).hasValue(2);
	}

	/**
	 * Records entering and leaving; makes its own name current for what runs inside it.
	 */
	static final class Nesting implements WorkflowInterceptor {

		private final String name;

		private final List<String> order;

		Nesting(String name, List<String> order) {
			this.name = name;
			this.order = order;
		}

		@Override
		public <R> R interceptClient(ClientCall call, Supplier<R> next) {
			this.order.add("client " + this.name + " in");
			try {
				return next.get();
			}
			finally {
				this.order.add("client " + this.name + " out");
			}
		}

		@Override
		public void interceptWorkflowTask(WorkflowTaskCall call, Runnable next) {
			this.order.add("task " + this.name + " in " + Thread.currentThread().getName());
			try {
				next.run();
			}
			finally {
				this.order.add("task " + this.name + " out");
			}
		}

		@Override
		public Object interceptActivity(ActivityCall call, Callable<Object> next) throws Exception {
			this.order.add("activity " + this.name + " in");
			String previous = TENANT.get();
			TENANT.set(this.name);
			try {
				return next.call();
			}
			finally {
				TENANT.set(previous);
				this.order.add("activity " + this.name + " out");
			}
		}

	}

}
