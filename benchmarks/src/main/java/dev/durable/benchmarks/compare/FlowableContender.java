package dev.durable.benchmarks.compare;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import com.zaxxer.hikari.HikariDataSource;
import org.flowable.common.engine.impl.context.Context;
import org.flowable.common.engine.impl.interceptor.CommandContext;
import org.flowable.common.engine.impl.interceptor.CommandContextCloseListener;
import org.flowable.common.engine.impl.persistence.StrongUuidGenerator;
import org.flowable.engine.ProcessEngine;
import org.flowable.engine.ProcessEngineConfiguration;
import org.flowable.engine.delegate.DelegateExecution;
import org.flowable.engine.delegate.ExecutionListener;
import org.flowable.engine.delegate.JavaDelegate;
import org.flowable.engine.impl.cfg.StandaloneProcessEngineConfiguration;

/**
 * Flowable's embedded BPMN engine (no Spring integration) on its own database of the
 * shared server, with a pool that may grow beyond the others' (see {@link #maxPoolSize}).
 * The steps workflows are processes of no-op Java service tasks in a row. With
 * {@code async}, each task is {@code flowable:async}: a job committed before it runs,
 * executed by the engine's async executor, so each step's outcome is durable before the
 * next starts (the like-for-like mode). Without, the whole process runs in the start's
 * one transaction (a weaker guarantee: a crash loses every step). The history level is
 * Flowable's default ({@code audit}). A run counts as done when the transaction that ends
 * the process has committed.
 */
final class FlowableContender extends PooledContender {

	/** The report's names of the two modes. */
	static final String ASYNC = "Flowable async";

	static final String ONE_TRANSACTION = "Flowable one tx";

	/**
	 * Completions by business key (the workflow id), completed after the ending
	 * transaction's commit.
	 */
	private static final Map<String, CompletableFuture<Void>> DONE = new ConcurrentHashMap<>();

	private final boolean async;

	private final ProcessEngine engine;

	FlowableContender(HikariDataSource pool, String database, boolean async, int executorThreads) {
		super(pool, database);
		this.async = async;
		StandaloneProcessEngineConfiguration config = new StandaloneProcessEngineConfiguration();
		config.setDataSource(pool);
		config.setDatabaseSchemaUpdate(ProcessEngineConfiguration.DB_SCHEMA_UPDATE_TRUE);
		// the default id generator takes a block of ids in a transaction of its own,
		// under a lock,
		// while the caller holds its connection: with more clients than connections, the
		// pool
		// starves (Flowable recommends this generator for concurrent use anyway)
		config.setIdGenerator(new StrongUuidGenerator());
		config.setAsyncExecutorActivate(async);
		config.setAsyncExecutorCorePoolSize(executorThreads);
		config.setAsyncExecutorMaxPoolSize(executorThreads);
		config.setAsyncExecutorThreadPoolQueueSize(10_000);
		this.engine = config.buildProcessEngine();
		for (int steps : new int[] { 3, 20 }) {
			this.engine.getRepositoryService()
				.createDeployment()
				.addString(key(steps) + ".bpmn20.xml", process(key(steps), steps, async))
				.deploy();
		}
	}

	/**
	 * The most connections Flowable's pool may open: one for every client and every
	 * executor thread, plus one each of them may hold at the same time, plus the
	 * acquisition threads'. A transaction that adds an asynchronous job tells the async
	 * executor after its commit in a transaction of its own ({@code REQUIRES_NEW}) while
	 * its first connection is still held, so a thread may hold two; with the others' pool
	 * size (and even twice it), 16 clients each holding one and waiting for a second
	 * starved the pool for its 30 s connection timeout. The pool opens the others' pool
	 * size at start and grows only when Flowable asks for more.
	 */
	static int maxPoolSize(int executorThreads, int maxClients) {
		return maxClients + executorThreads + 2;
	}

	private String key(int steps) {
		return "steps" + steps + (this.async ? "async" : "tx");
	}

	/**
	 * A process of {@code steps} no-op service tasks in a row, each asynchronous or not.
	 */
	static String process(String key, int steps, boolean async) {
		StringBuilder xml = new StringBuilder("""
				<?xml version="1.0" encoding="UTF-8"?>
				<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
				    xmlns:flowable="http://flowable.org/bpmn" targetNamespace="bench">
				  <process id="%s" isExecutable="true">
				    <startEvent id="start"/>
				""".formatted(key));
		String previous = "start";
		for (int i = 1; i <= steps; i++) {
			xml.append("    <serviceTask id=\"step")
				.append(i)
				.append("\" flowable:class=\"")
				.append(Noop.class.getName())
				.append("\" flowable:async=\"")
				.append(async)
				.append("\" flowable:exclusive=\"false\"/>\n");
			xml.append("    <sequenceFlow id=\"f")
				.append(i)
				.append("\" sourceRef=\"")
				.append(previous)
				.append("\" targetRef=\"step")
				.append(i)
				.append("\"/>\n");
			previous = "step" + i;
		}
		xml.append("    <endEvent id=\"end\"><extensionElements><flowable:executionListener event=\"end\" class=\"")
			.append(Ended.class.getName())
			.append("\"/></extensionElements></endEvent>\n");
		xml.append("    <sequenceFlow id=\"fend\" sourceRef=\"").append(previous).append("\" targetRef=\"end\"/>\n");
		xml.append("  </process>\n</definitions>\n");
		return new String(xml.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
	}

	@Override
	public String name() {
		return this.async ? ASYNC : ONE_TRANSACTION;
	}

	@Override
	public void runSteps(String workflowId, int steps) {
		CompletableFuture<Void> done = new CompletableFuture<>();
		DONE.put(workflowId, done);
		try {
			this.engine.getRuntimeService().startProcessInstanceByKey(key(steps), workflowId);
			done.join();
		}
		finally {
			DONE.remove(workflowId);
		}
	}

	@Override
	public void runQueuedSteps(String workflowId, int steps) {
		throw new UnsupportedOperationException("Flowable runs the steps scenarios only");
	}

	@Override
	public void startWaiting(String workflowId) {
		throw new UnsupportedOperationException("Flowable runs the steps scenarios only");
	}

	@Override
	public void signal(String workflowId) {
		throw new UnsupportedOperationException("Flowable runs the steps scenarios only");
	}

	@Override
	public void awaitResult(String workflowId) {
		throw new UnsupportedOperationException("Flowable runs the steps scenarios only");
	}

	@Override
	void stopEngine() {
		this.engine.close();
	}

	/** The no-op step, as the other engines' steps. */
	public static final class Noop implements JavaDelegate {

		@Override
		public void execute(DelegateExecution execution) {
			// nothing: the engine's cost of one step
		}

	}

	/**
	 * The end of a process: its client is told once the ending transaction has committed,
	 * by a close listener of the command (a transaction listener would run in a command
	 * of its own, which takes a second connection while the first is still held).
	 */
	public static final class Ended implements ExecutionListener {

		@Override
		public void notify(DelegateExecution execution) {
			String key = execution.getProcessInstanceBusinessKey();
			Context.getCommandContext().addCloseListener(new CommandContextCloseListener() {

				@Override
				public void closed(CommandContext context) {
					CompletableFuture<Void> done = DONE.get(key);
					if (done != null) {
						done.complete(null);
					}
				}

				@Override
				public void closing(CommandContext context) {
				}

				@Override
				public void afterSessionsFlush(CommandContext context) {
				}

				@Override
				public void closeFailure(CommandContext context) {
				}

				@Override
				public Integer order() {
					return 100;
				}

				@Override
				public boolean multipleAllowed() {
					return true;
				}

			});
		}

	}

}
