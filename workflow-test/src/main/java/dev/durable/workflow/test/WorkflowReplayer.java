package dev.durable.workflow.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import java.util.function.Function;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.sql.DataSource;

import org.springframework.objenesis.SpringObjenesis;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.engine.ReplayCheckOptions;
import dev.durable.workflow.engine.ReplayCheckReport;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.payload.PayloadConverter;
import dev.durable.workflow.testsupport.HistoryReplay;

/**
 * Proves a change of workflow code is replay-safe before it is deployed: replays recorded
 * histories against the current workflow class, without a database, and fails when the
 * code no longer issues the recorded commands.
 *
 * <pre>{@code
 * // exported earlier: new ObjectMapper().writeValueAsString(handle.history()),
 * // or GET /durable/workflows/{id}/history
 * String json = Files.readString(Path.of("src/test/resources/histories/order-42.json"));
 * WorkflowReplayer.replay(OrderWorkflow.class, json); // throws NonDeterministicWorkflowException
 * }</pre>
 *
 * <p>
 * The workflow is instantiated through its public constructor with the most parameters;
 * parameters of an {@code @Activity} type get stubs (replay never runs activities),
 * others {@code null}; pass a factory for anything else.
 *
 * <p>
 * Exported payloads are decoded JSON values (decrypted when the exporting node had the
 * key), so the histories of an engine with an
 * {@link dev.durable.workflow.payload.EncryptingPayloadConverter} replay as they are.
 * Pass the engine's converter ({@link Options#withPayloadConverter}) when the workflow
 * types need its mapping, or when payloads were exported undecoded ({@code {"$encoded":
 * ...}}: a node without the key, a converter that does not write JSON).
 *
 * <pre>{@code
 * WorkflowReplayer.replay(OrderWorkflow.class, json, WorkflowReplayer.Options.defaults()
 *     .withPayloadConverter(EncryptingPayloadConverter.builder().key("k1", key).currentKey("k1").build())
 *     .withFailWorkflowExceptionTypes(List.of(OutOfStockException.class)));
 * }</pre>
 */
public final class WorkflowReplayer {

	private static final SpringObjenesis OBJENESIS = new SpringObjenesis();

	private WorkflowReplayer() {
	}

	/**
	 * Replays one history, given as the JSON of a {@code List<HistoryEvent>}.
	 * @throws NonDeterministicWorkflowException when the code issues other commands than
	 * the history holds; {@link NonDeterministicWorkflowException#workflowTask()}, {@code
	 *     recordedCommand()} and {@code issuedCommand()} say where and how
	 */
	public static void replay(Class<?> workflowClass, String historyJson) {
		replay(workflowClass, HistoryReplay.parse(historyJson));
	}

	/** Replays one history, as {@code handle.history()} returned it. */
	public static void replay(Class<?> workflowClass, List<HistoryEvent> history) {
		replay(workflowClass, history, stubFactory());
	}

	/**
	 * Replays one history, creating the workflow instance with the given factory (called
	 * with the workflow class).
	 */
	public static void replay(Class<?> workflowClass, List<HistoryEvent> history, Function<Class<?>, Object> factory) {
		HistoryReplay.replay(workflowClass, history, factory);
	}

	/**
	 * Replays one history as an engine with these engine-wide
	 * {@code failWorkflowExceptionTypes} ran it
	 * ({@code WorkflowEngine.Builder.failWorkflowExceptionTypes} or the Spring property
	 * {@code durable.workflow.worker.fail-workflow-exception-types}): a run that such an
	 * exception failed replays only with the same list. The workflow's own
	 * {@code @Workflow(failWorkflowExceptionTypes)} always counts.
	 */
	public static void replay(Class<?> workflowClass, List<HistoryEvent> history, Function<Class<?>, Object> factory,
			List<Class<? extends Throwable>> failWorkflowExceptionTypes) {
		HistoryReplay.replay(workflowClass, history, factory, failWorkflowExceptionTypes);
	}

	/**
	 * Replays one history given as JSON, with the engine-wide
	 * {@code failWorkflowExceptionTypes} of the engine that ran it (see
	 * {@link #replay(Class, List, Function, List)}).
	 */
	public static void replay(Class<?> workflowClass, String historyJson,
			List<Class<? extends Throwable>> failWorkflowExceptionTypes) {
		replay(workflowClass, HistoryReplay.parse(historyJson), stubFactory(), failWorkflowExceptionTypes);
	}

	/** Replays one history given as JSON, with the given options. */
	public static void replay(Class<?> workflowClass, String historyJson, Options options) {
		replay(workflowClass, HistoryReplay.parse(historyJson), options);
	}

	/**
	 * Replays one history, as {@code handle.history()} returned it, with the given
	 * options.
	 */
	public static void replay(Class<?> workflowClass, List<HistoryEvent> history, Options options) {
		HistoryReplay.replay(workflowClass, history, options.factory(), options.failWorkflowExceptionTypes(),
				options.payloadConverter());
	}

	/**
	 * Replays several histories (name to JSON) and reports every failure instead of
	 * stopping at the first.
	 */
	public static ReplayReport replayAll(Class<?> workflowClass, Map<String, String> historiesJson) {
		return replayAll(workflowClass, historiesJson, Options.defaults());
	}

	/**
	 * Replays several histories (name to JSON) with the given options; see
	 * {@link #replayAll(Class, Map)}.
	 */
	public static ReplayReport replayAll(Class<?> workflowClass, Map<String, String> historiesJson, Options options) {
		Map<String, RuntimeException> failures = new LinkedHashMap<>();
		historiesJson.forEach((name, json) -> {
			try {
				replay(workflowClass, json, options);
			}
			catch (RuntimeException ex) {
				failures.put(name, ex);
			}
		});
		return new ReplayReport(historiesJson.size(), failures);
	}

	/**
	 * The replay check of exported history files before a deploy: replays every
	 * {@code *.json} file of the directory (each the JSON of a
	 * {@code List<HistoryEvent>}, as {@code GET /durable/workflows/{id}/history} or
	 * {@code durable history -o json} wrote it) on the given class of the type its
	 * history names, and reports every history that does not replay with its first
	 * mismatch; a history of a type none of the classes has is reported too.
	 *
	 * <pre>{@code
	 * ReplayCheckReport report = WorkflowReplayer.checkDirectory(Path.of("src/test/resources/histories"),
	 *     Options.defaults(), OrderWorkflow.class, RefundWorkflow.class);
	 * assertThat(report.failures()).isEmpty();
	 * }</pre>
	 * @throws IllegalArgumentException when a file is not such JSON
	 */
	public static ReplayCheckReport checkDirectory(Path directory, Options options, Class<?>... workflowClasses) {
		Map<String, List<HistoryEvent>> histories = new LinkedHashMap<>();
		try (Stream<Path> files = Files.list(directory)) {
			for (Path file : files.filter((f) -> f.getFileName().toString().endsWith(".json")).sorted().toList()) {
				try {
					histories.put(file.getFileName().toString(), HistoryReplay.parse(Files.readString(file)));
				}
				catch (RuntimeException ex) {
					throw new IllegalArgumentException(
							"History file " + file + " is not an exported history: " + ex.getMessage(), ex);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return HistoryReplay.check(histories, List.of(workflowClasses), options.factory(),
				options.failWorkflowExceptionTypes(), options.payloadConverter());
	}

	/**
	 * The replay check of a database's runs before a deploy: replays a sample of the
	 * stored histories of each of the given workflow classes' types (the newest runs,
	 * open ones first; see {@link ReplayCheckOptions}) on these classes, and reports
	 * every run that does not replay with its first mismatch. Point it at a copy of
	 * production, or at production with a read-only user: it reads the runs and changes
	 * nothing (no schema migration, no node registered, no task claimed).
	 *
	 * <pre>{@code
	 * ReplayCheckReport report = WorkflowReplayer.checkDatabase(stagingDataSource, "durable", "default",
	 *     ReplayCheckOptions.defaults().withOpenRunsOnly(true), OrderWorkflow.class);
	 * assertThat(report.failures()).isEmpty();
	 * }</pre>
	 * @param schema the engine's schema ({@code durable} by default)
	 * @param namespace the namespace of the runs ({@code default} by default)
	 * @throws dev.durable.workflow.client.UnknownWorkflowTypeException when the options
	 * name a type none of the classes has
	 */
	public static ReplayCheckReport checkDatabase(DataSource dataSource, String schema, String namespace,
			ReplayCheckOptions options, Class<?>... workflowClasses) {
		try (WorkflowEngine reader = WorkflowEngine.builder()
			.dataSource(dataSource)
			.schema(schema)
			.namespace(namespace)
			.migrateSchema(false)
			.worker(false)
			.workflowFactory(stubFactory())
			.register(workflowClasses)
			.build()) {
			return reader.checkReplay(options);
		}
	}

	/**
	 * How histories are replayed: the workflow factory, the engine-wide {@code
	 * failWorkflowExceptionTypes} and the payload converter of the engine that ran them.
	 * Immutable; each {@code with} method returns a copy.
	 *
	 * @param factory creates the workflow instance (called with the workflow class);
	 * {@link #stubFactory()} by default
	 * @param failWorkflowExceptionTypes the engine's {@code failWorkflowExceptionTypes}
	 * (see {@link #replay(Class, List, Function, List)}); empty by default
	 * @param payloadConverter the engine's payload converter;
	 * {@link PayloadConverter#json()} by default
	 */
	public record Options(Function<Class<?>, Object> factory,
			List<Class<? extends Throwable>> failWorkflowExceptionTypes, PayloadConverter payloadConverter) {

		public Options {
			Objects.requireNonNull(factory, "factory");
			failWorkflowExceptionTypes = List.copyOf(failWorkflowExceptionTypes);
			Objects.requireNonNull(payloadConverter, "payloadConverter");
		}

		/** The stub factory, no engine-wide exception types, the JSON converter. */
		public static Options defaults() {
			return new Options(stubFactory(), List.of(), PayloadConverter.json());
		}

		public Options withFactory(Function<Class<?>, Object> factory) {
			return new Options(factory, this.failWorkflowExceptionTypes, this.payloadConverter);
		}

		public Options withFailWorkflowExceptionTypes(List<Class<? extends Throwable>> types) {
			return new Options(this.factory, types, this.payloadConverter);
		}

		public Options withPayloadConverter(PayloadConverter converter) {
			return new Options(this.factory, this.failWorkflowExceptionTypes, converter);
		}
	}

	/**
	 * The outcome of {@link #replayAll}.
	 *
	 * @param replayed how many histories were replayed
	 * @param failures the failures by history name (NonDeterministicWorkflowException for
	 * a code change, other exceptions for histories that could not be read or workflow
	 * code that threw)
	 */
	public record ReplayReport(int replayed, Map<String, RuntimeException> failures) {

		public boolean succeeded() {
			return this.failures.isEmpty();
		}

		/**
		 * Throws the first failure (the others suppressed) when any history did not
		 * replay.
		 */
		public void throwIfFailed() {
			if (this.failures.isEmpty()) {
				return;
			}
			List<Map.Entry<String, RuntimeException>> all = new ArrayList<>(this.failures.entrySet());
			IllegalStateException failure = new IllegalStateException(
					this.failures.size() + " of " + this.replayed + " histories did not replay; first, "
							+ all.get(0).getKey() + ": " + all.get(0).getValue().getMessage(),
					all.get(0).getValue());
			all.stream().skip(1).forEach((e) -> failure.addSuppressed(e.getValue()));
			throw failure;
		}
	}

	/**
	 * The default factory: the public constructor with the most parameters,
	 * {@code @Activity} parameters as stubs that only record commands, others
	 * {@code null}.
	 */
	public static Function<Class<?>, Object> stubFactory() {
		return (type) -> {
			Constructor<?> constructor = null;
			for (Constructor<?> candidate : type.getConstructors()) {
				if (constructor == null || candidate.getParameterCount() > constructor.getParameterCount()) {
					constructor = candidate;
				}
			}
			if (constructor == null) {
				throw new IllegalStateException("Workflow class " + type.getName() + " needs a public constructor");
			}
			Class<?>[] types = constructor.getParameterTypes();
			Object[] args = new Object[types.length];
			for (int i = 0; i < types.length; i++) {
				if (WorkflowEngine.isActivityType(types[i])) {
					args[i] = HistoryReplay.replayStub(types[i], stub(types[i]));
				}
			}
			try {
				return constructor.newInstance(args);
			}
			catch (InvocationTargetException ex) {
				Throwable target = ex.getTargetException();
				throw (target instanceof RuntimeException re) ? re : new IllegalStateException(target);
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException("Cannot create workflow " + type.getName(), ex);
			}
		};
	}

	private static Object stub(Class<?> type) {
		if (type.isInterface()) {
			return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (proxy, method, args) -> {
				if (method.getDeclaringClass() == Object.class) {
					return switch (method.getName()) {
						case "hashCode" -> System.identityHashCode(proxy);
						case "equals" -> proxy == args[0];
						default -> "ReplayStub[" + type.getName() + "]";
					};
				}
				throw new UnsupportedOperationException("Activities do not run on replay");
			});
		}
		return OBJENESIS.newInstance(type);
	}

}
