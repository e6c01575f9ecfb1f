package dev.durable.workflow.autoconfigure;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.AutowireCapableBeanFactory;
import org.springframework.beans.factory.config.DependencyDescriptor;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.ReflectionUtils;

import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.InvalidWorkflowDefinitionException;

/**
 * Creates workflow instances, one per run, by constructor injection from the bean
 * factory. The instances are plain objects: no bean post-processing, so never an AOP
 * proxy. A constructor parameter whose type is an {@code @Activity} type receives the
 * engine's durable proxy of the activity bean, or, for an {@code @Activity} interface
 * with task-queue methods that no bean of this node implements, the engine's stub that
 * sends its calls to the nodes serving those queues (never a bean of the context, which
 * would call the activity directly); any other parameter is resolved like an autowired
 * constructor argument.
 */
final class SpringWorkflowFactory implements Function<Class<?>, Object> {

	private static final String[] TRANSACTIONAL = { "org.springframework.transaction.annotation.Transactional",
			"jakarta.transaction.Transactional", "javax.transaction.Transactional" };

	private final AutowireCapableBeanFactory beanFactory;

	private final Map<Class<?>, Constructor<?>> constructors = new ConcurrentHashMap<>();

	private volatile @Nullable WorkflowEngine engine;

	SpringWorkflowFactory(AutowireCapableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/** The engine whose activity proxies are injected; set once it is built. */
	void setEngine(WorkflowEngine engine) {
		this.engine = engine;
	}

	@Override
	public Object apply(Class<?> workflowClass) {
		Constructor<?> constructor = this.constructors.computeIfAbsent(workflowClass,
				SpringWorkflowFactory::constructor);
		Class<?>[] types = constructor.getParameterTypes();
		Object[] args = new Object[types.length];
		for (int i = 0; i < args.length; i++) {
			if (isActivityType(types[i])) {
				args[i] = activityProxy(types[i], workflowClass);
			}
			else {
				DependencyDescriptor descriptor = new DependencyDescriptor(
						MethodParameter.forExecutable(constructor, i), true);
				args[i] = this.beanFactory.resolveDependency(descriptor, null);
			}
		}
		return BeanUtils.instantiateClass(constructor, args);
	}

	/**
	 * Checks at startup that the workflow class can be created: a usable constructor, no
	 * {@code @Transactional}, and for every activity parameter a registered activity bean
	 * or an interface whose calls go to task queues.
	 */
	void validate(Class<?> workflowClass) {
		Constructor<?> constructor = this.constructors.computeIfAbsent(workflowClass,
				SpringWorkflowFactory::constructor);
		for (Class<?> type : constructor.getParameterTypes()) {
			if (isActivityType(type)) {
				activityProxy(type, workflowClass);
			}
		}
	}

	private Object activityProxy(Class<?> activityType, Class<?> workflowClass) {
		WorkflowEngine engine = this.engine;
		if (engine == null) {
			throw new IllegalStateException("The workflow engine is not built yet");
		}
		return engine.activityProxy(activityType, workflowClass);
	}

	static boolean isActivityType(Class<?> type) {
		return WorkflowEngine.isActivityType(type);
	}

	private static Constructor<?> constructor(Class<?> workflowClass) {
		rejectTransactional(workflowClass);
		for (Constructor<?> candidate : workflowClass.getDeclaredConstructors()) {
			if (MergedAnnotations.from(candidate).isPresent(Autowired.class)) {
				return candidate;
			}
		}
		try {
			return BeanUtils.getResolvableConstructor(workflowClass);
		}
		catch (IllegalStateException ex) {
			throw new InvalidWorkflowDefinitionException(workflowClass, "Workflow class " + workflowClass.getName()
					+ " needs a single constructor (or one annotated with @Autowired) to be created for each run", ex);
		}
	}

	/**
	 * Workflow instances are never proxied, so a transaction annotation would silently do
	 * nothing; and workflow code must not touch the database itself anyway.
	 */
	static void rejectTransactional(Class<?> workflowClass) {
		for (String annotation : TRANSACTIONAL) {
			if (MergedAnnotations.from(workflowClass, SearchStrategy.TYPE_HIERARCHY).isPresent(annotation)) {
				throw transactional(workflowClass, workflowClass.getName());
			}
		}
		for (Method method : ReflectionUtils.getUniqueDeclaredMethods(workflowClass,
				ReflectionUtils.USER_DECLARED_METHODS)) {
			for (String annotation : TRANSACTIONAL) {
				if (MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY).isPresent(annotation)) {
					throw transactional(workflowClass, "method " + method.getName() + " of " + workflowClass.getName());
				}
			}
		}
	}

	private static InvalidWorkflowDefinitionException transactional(Class<?> workflowClass, String where) {
		return new InvalidWorkflowDefinitionException(workflowClass,
				"@Transactional is not supported on workflow classes, but " + where
						+ " carries it. A workflow instance is never a Spring proxy, and workflow code must not open"
						+ " transactions: it is replayed, so its effects would repeat. Move the transactional work into"
						+ " a method of an @Activity bean and call it from " + workflowClass.getSimpleName() + ".");
	}

}
