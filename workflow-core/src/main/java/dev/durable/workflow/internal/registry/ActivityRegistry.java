package dev.durable.workflow.internal.registry;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.failure.InvalidActivityDefinitionException;
import dev.durable.workflow.payload.EncodedValue;

/**
 * Activity implementations by type name, and the activity type of each method of a
 * declaring type.
 */
public final class ActivityRegistry {

	private final Map<String, ActivityDefinition> byName = new LinkedHashMap<>();

	private final Map<Method, ActivityDefinition> byMethod = new LinkedHashMap<>();

	private final Map<Class<?>, Object> byType = new LinkedHashMap<>();

	private final ActivityOptions defaults;

	/** The dynamic activity, or {@code null}. */
	private ActivityDefinition dynamic;

	public ActivityRegistry(ActivityOptions defaults) {
		this.defaults = defaults;
	}

	/**
	 * The type carrying {@code @Activity}: the class itself or one of its interfaces.
	 * Generated subclasses (Mockito mocks, proxies) that copy the annotation are looked
	 * through, so a mock of an {@code @Activity} interface registers that interface.
	 */
	public static Class<?> activityType(Class<?> beanClass) {
		for (Class<?> c = beanClass; c != null && c != Object.class; c = c.getSuperclass()) {
			if (c.isAnnotationPresent(Activity.class) && !isGenerated(c)) {
				return c;
			}
			for (Class<?> i : c.getInterfaces()) {
				if (i.isAnnotationPresent(Activity.class)) {
					return i;
				}
			}
		}
		return null;
	}

	private static boolean isGenerated(Class<?> type) {
		String name = type.getName();
		return name.contains("$MockitoMock$") || name.contains("$ByteBuddy$") || name.contains("$$");
	}

	/** Registers every public method of the bean's {@code @Activity} type. */
	public synchronized void register(Object bean) {
		Class<?> type = activityType(bean.getClass());
		if (type == null) {
			throw new InvalidActivityDefinitionException(bean.getClass(), bean.getClass().getName()
					+ " is not an activity: annotate the class or an interface with @Activity");
		}
		if (type.getAnnotation(Activity.class).dynamic()) {
			registerDynamic(bean, type);
			return;
		}
		for (Method method : activityMethods(type)) {
			// invoke through the declared method: it is public even when the
			// implementation class
			// is not (a lambda, a package-private component)
			if (!java.lang.reflect.Modifier.isPublic(type.getModifiers())) {
				method.setAccessible(true);
			}
			ActivityDefinition definition = definition(type, bean, method);
			ActivityDefinition existing = this.byName.get(definition.name());
			if (existing != null && existing.target() != bean) {
				throw new InvalidActivityDefinitionException(type, "Activity type '" + definition.name()
						+ "' is declared by both " + existing.method() + " and " + method
						+ "; give one a distinct @ActivityMethod(name = ...), or its type an @Activity(namePrefix = ...)");
			}
			this.byName.put(definition.name(), definition);
			this.byMethod.put(method, definition);
		}
		this.byType.put(type, bean);
		if (type != bean.getClass()) {
			this.byType.put(bean.getClass(), bean);
		}
	}

	/**
	 * Validates an activity method. The rules live with the definition and the payload
	 * types, which refuse a method with an {@link IllegalArgumentException}; here it
	 * becomes the public {@link InvalidActivityDefinitionException} naming the activity
	 * type, with the same message and the stack of the rule that refused it.
	 */
	private ActivityDefinition definition(Class<?> type, Object bean, Method method) {
		try {
			return ActivityDefinition.of(bean, method, this.defaults);
		}
		catch (InvalidActivityDefinitionException ex) {
			throw ex;
		}
		catch (IllegalArgumentException ex) {
			InvalidActivityDefinitionException invalid = new InvalidActivityDefinitionException(type, ex.getMessage(),
					ex.getCause());
			invalid.setStackTrace(ex.getStackTrace());
			throw invalid;
		}
	}

	/**
	 * The dynamic activity: its one method takes the type name and the arguments as sent.
	 */
	private void registerDynamic(Object bean, Class<?> type) {
		java.util.List<Method> methods = new java.util.ArrayList<>();
		activityMethods(type).forEach(methods::add);
		if (methods.size() != 1 || methods.get(0).getParameterCount() != 2
				|| methods.get(0).getParameterTypes()[0] != String.class
				|| methods.get(0).getParameterTypes()[1] != EncodedValue[].class) {
			throw new InvalidActivityDefinitionException(type,
					"Dynamic activity " + type.getName() + " must have exactly one public"
							+ " method taking (String activityType, EncodedValue[] arguments)");
		}
		if (this.dynamic != null && this.dynamic.target() != bean) {
			throw new InvalidActivityDefinitionException(type, "Two dynamic activities: " + this.dynamic.method()
					+ " and " + methods.get(0) + "; a node has at most one");
		}
		Method method = methods.get(0);
		if (!java.lang.reflect.Modifier.isPublic(type.getModifiers())) {
			method.setAccessible(true);
		}
		this.dynamic = new ActivityDefinition(ActivityDefinition.typeName(method), bean, method, this.defaults);
		this.byType.put(type, bean);
	}

	/**
	 * Whether the definition is the dynamic activity's (it takes the type name and the
	 * arguments as sent).
	 */
	public synchronized boolean isDynamic(ActivityDefinition definition) {
		return definition != null && definition == this.dynamic;
	}

	public static Iterable<Method> activityMethods(Class<?> type) {
		java.util.List<Method> methods = new java.util.ArrayList<>();
		for (Method method : type.isInterface() ? type.getMethods() : type.getDeclaredMethods()) {
			if (Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers())
					&& !method.isSynthetic() && !method.isBridge()) {
				methods.add(method);
			}
		}
		return methods;
	}

	/**
	 * The activity of a type name: the one registered by that name, else the dynamic one,
	 * else {@code null}.
	 */
	public synchronized ActivityDefinition find(String name) {
		ActivityDefinition named = this.byName.get(name);
		return (named != null) ? named : this.dynamic;
	}

	public synchronized ActivityDefinition find(Method method) {
		return this.byMethod.get(method);
	}

	/** The registered bean assignable to the given type, or {@code null}. */
	public synchronized Object beanOfType(Class<?> type) {
		Object bean = this.byType.get(type);
		if (bean != null) {
			return bean;
		}
		for (Map.Entry<Class<?>, Object> entry : this.byType.entrySet()) {
			if (type.isAssignableFrom(entry.getKey())) {
				return entry.getValue();
			}
		}
		return null;
	}

	/** Among {@link #names()}: this node has a dynamic activity, it runs any type. */
	public static final String ANY_TYPE = "*";

	/** The names of the registered activity types (those this node can run). */
	public synchronized java.util.Set<String> names() {
		java.util.Set<String> names = new java.util.LinkedHashSet<>();
		this.byName.forEach((name, definition) -> {
			if (definition.target() != null) {
				names.add(name);
			}
		});
		if (this.dynamic != null) {
			names.add(ANY_TYPE);
		}
		return names;
	}

	public ActivityOptions defaults() {
		return this.defaults;
	}

}
