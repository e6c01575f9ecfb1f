package dev.durable.workflow.test;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstantiationAwareExtension;
import org.junit.platform.commons.support.AnnotationSupport;

import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * The JUnit 5 extension behind {@link WorkflowTest}; also usable with
 * {@code @RegisterExtension}:
 *
 * <pre>{@code
 * &#64;RegisterExtension
 * static final WorkflowTestExtension workflows = WorkflowTestExtension.builder()
 *     .registerWorkflows(ReminderWorkflow.class)
 *     .registerActivities(new FakeMailer())
 *     .build();
 *
 *

&#64;Test
 * void reminds(TestWorkflowEnvironment env, WorkflowClient client) { ... }
 * }</pre>
 *
 * Each test gets its own environment (own schema, own clock), created when first asked
 * for and closed after the test. Parameters of type {@link TestWorkflowEnvironment},
 * {@link WorkflowClient} and {@link WorkflowEngine} are resolved, in test methods,
 * lifecycle methods and constructors.
 */
public final class WorkflowTestExtension
		implements ParameterResolver, AfterEachCallback, TestInstantiationAwareExtension {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(WorkflowTestExtension.class);

	private final List<Class<?>> workflows;

	private final List<Object> activities;

	private final @Nullable Consumer<TestWorkflowEnvironment.Builder> customizer;

	private final @Nullable Boolean autoTimeSkipping;

	/**
	 * The extension as {@link WorkflowTest} registers it: configured by the annotation.
	 */
	public WorkflowTestExtension() {
		this(List.of(), List.of(), null, null);
	}

	private WorkflowTestExtension(List<Class<?>> workflows, List<Object> activities,
			@Nullable Consumer<TestWorkflowEnvironment.Builder> customizer, @Nullable Boolean autoTimeSkipping) {
		this.workflows = List.copyOf(workflows);
		this.activities = List.copyOf(activities);
		this.customizer = customizer;
		this.autoTimeSkipping = autoTimeSkipping;
	}

	public static Builder builder() {
		return new Builder();
	}

	@Override
	public ExtensionContextScope getTestInstantiationExtensionContextScope(ExtensionContext rootContext) {
		return ExtensionContextScope.TEST_METHOD;
	}

	@Override
	public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
		Class<?> type = parameter.getParameter().getType();
		return type == TestWorkflowEnvironment.class || type == WorkflowClient.class || type == WorkflowEngine.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
		TestWorkflowEnvironment env = environment(context);
		Class<?> type = parameter.getParameter().getType();
		if (type == WorkflowClient.class) {
			return env.client();
		}
		if (type == WorkflowEngine.class) {
			return env.engine();
		}
		return env;
	}

	/** The environment of the current test, created on first use. */
	public TestWorkflowEnvironment environment(ExtensionContext context) {
		return context.getStore(NAMESPACE)
			.getOrComputeIfAbsent(TestWorkflowEnvironment.class, (key) -> create(context),
					TestWorkflowEnvironment.class);
	}

	private TestWorkflowEnvironment create(ExtensionContext context) {
		TestWorkflowEnvironment.Builder builder = TestWorkflowEnvironment.builder();
		builder.registerWorkflows(this.workflows.toArray(Class<?>[]::new));
		builder.registerActivities(this.activities.toArray());
		WorkflowTest annotation = context.getTestClass()
			.flatMap((c) -> AnnotationSupport.findAnnotation(c, WorkflowTest.class))
			.orElse(null);
		if (annotation != null) {
			builder.registerWorkflows(annotation.workflows());
			for (Class<?> type : annotation.activities()) {
				builder.registerActivities(instantiate(type));
			}
			builder.autoTimeSkipping(annotation.autoTimeSkipping());
		}
		if (this.autoTimeSkipping != null) {
			builder.autoTimeSkipping(this.autoTimeSkipping);
		}
		if (this.customizer != null) {
			this.customizer.accept(builder);
		}
		return builder.build();
	}

	private static Object instantiate(Class<?> type) {
		try {
			var constructor = type.getDeclaredConstructor();
			constructor.setAccessible(true);
			return constructor.newInstance();
		}
		catch (InvocationTargetException ex) {
			throw new ParameterResolutionException("Cannot create activity " + type.getName(), ex.getTargetException());
		}
		catch (ReflectiveOperationException ex) {
			throw new ParameterResolutionException(
					"Activity " + type.getName() + " of @WorkflowTest needs a no-argument constructor", ex);
		}
	}

	@Override
	public void afterEach(ExtensionContext context) {
		TestWorkflowEnvironment env = context.getStore(NAMESPACE)
			.remove(TestWorkflowEnvironment.class, TestWorkflowEnvironment.class);
		if (env != null) {
			env.close();
		}
	}

	/** Builder of {@link WorkflowTestExtension}. */
	public static final class Builder {

		private final List<Class<?>> workflows = new ArrayList<>();

		private final List<Object> activities = new ArrayList<>();

		private @Nullable Consumer<TestWorkflowEnvironment.Builder> customizer;

		private @Nullable Boolean autoTimeSkipping;

		private Builder() {
		}

		public Builder registerWorkflows(Class<?>... workflowClasses) {
			this.workflows.addAll(List.of(workflowClasses));
			return this;
		}

		/**
		 * Activity implementations shared by the tests (mocks: reset them between tests).
		 */
		public Builder registerActivities(Object... implementations) {
			this.activities.addAll(List.of(implementations));
			return this;
		}

		public Builder autoTimeSkipping(boolean enabled) {
			this.autoTimeSkipping = enabled;
			return this;
		}

		/**
		 * Adjusts each test's environment builder (start time, engine customizations).
		 */
		public Builder customize(Consumer<TestWorkflowEnvironment.Builder> customizer) {
			this.customizer = customizer;
			return this;
		}

		public WorkflowTestExtension build() {
			return new WorkflowTestExtension(this.workflows, this.activities, this.customizer, this.autoTimeSkipping);
		}

	}

}
