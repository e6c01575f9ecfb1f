package dev.durable.workflow.internal.registry;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import dev.durable.workflow.Signal;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.engine.HandlerKind;
import dev.durable.workflow.internal.support.NonData;

/**
 * The signal names a workflow class declares for {@code Workflows.receive}: those of
 * {@code @Workflow(receives)} and of its {@code static final Signal} fields (its own, its
 * superclasses' and its interfaces'), with the payload type of the typed ones. Signals of
 * these names are buffered for {@code receive}; together with the signal handlers they
 * are the names a client may send.
 */
public final class ReceivedSignals {

	private final Map<String, Type> types;

	private ReceivedSignals(Map<String, Type> types) {
		this.types = types;
	}

	/**
	 * Reads and checks the declarations of a class.
	 * @throws IllegalArgumentException for a blank name, a name declared with two payload
	 * types, a name a {@code @SignalMethod} takes, a {@code Signal} field that is not
	 * static final or is null, or a payload type that cannot be a durable payload
	 */
	static ReceivedSignals of(Class<?> workflowClass, MessageHandlers handlers) {
		Map<String, Type> types = new LinkedHashMap<>();
		Workflow annotation = workflowClass.getAnnotation(Workflow.class);
		for (String name : (annotation != null) ? annotation.receives() : new String[0]) {
			if (name == null || name.isBlank()) {
				throw new IllegalArgumentException(
						"@Workflow(receives) of " + workflowClass.getName() + " has a blank signal name");
			}
			types.putIfAbsent(name, null);
		}
		Map<String, Field> declaredBy = new LinkedHashMap<>();
		for (Field field : signalFields(workflowClass)) {
			Signal<?> signal = read(field);
			Type previous = types.get(signal.name());
			if (previous != null && !previous.equals(signal.payloadType())) {
				throw new IllegalArgumentException("Signal '" + signal.name() + "' of " + workflowClass.getName()
						+ " is declared with two payload types: " + previous.getTypeName() + " by "
						+ describe(declaredBy.get(signal.name())) + " and " + signal.payloadType().getTypeName()
						+ " by " + describe(field));
			}
			String problem = NonData.typeProblem(signal.payloadType());
			if (problem != null) {
				throw new IllegalArgumentException(describe(field) + ": the payload type is " + problem
						+ ", which cannot be a durable payload (signals are recorded as JSON)");
			}
			types.put(signal.name(), signal.payloadType());
			declaredBy.putIfAbsent(signal.name(), field);
		}
		for (String name : types.keySet()) {
			if (handlers.names(HandlerKind.SIGNAL).contains(name)) {
				throw new IllegalArgumentException("Signal '" + name + "' of " + workflowClass.getName()
						+ " is declared for Workflows.receive and is also the name of @SignalMethod "
						+ handlers.find(HandlerKind.SIGNAL, name).method().getName()
						+ ", which takes every signal of that name; rename one of them");
			}
		}
		return new ReceivedSignals(types);
	}

	/**
	 * The static {@code Signal} fields of the class, its superclasses and its interfaces,
	 * each once.
	 */
	private static Set<Field> signalFields(Class<?> workflowClass) {
		Set<Field> fields = new LinkedHashSet<>();
		Set<Class<?>> seen = new LinkedHashSet<>();
		Deque<Class<?>> pending = new ArrayDeque<>();
		pending.add(workflowClass);
		while (!pending.isEmpty()) {
			Class<?> type = pending.poll();
			if (type == Object.class || !seen.add(type)) {
				continue;
			}
			for (Field field : type.getDeclaredFields()) {
				if (Signal.class.isAssignableFrom(field.getType())) {
					fields.add(field);
				}
			}
			if (type.getSuperclass() != null) {
				pending.add(type.getSuperclass());
			}
			pending.addAll(java.util.List.of(type.getInterfaces()));
		}
		return fields;
	}

	private static Signal<?> read(Field field) {
		int modifiers = field.getModifiers();
		if (!Modifier.isStatic(modifiers) || !Modifier.isFinal(modifiers)) {
			throw new IllegalArgumentException(describe(field)
					+ " must be static final: a Signal declares a name of the workflow type, not of a run");
		}
		if (!field.trySetAccessible()) {
			throw new IllegalArgumentException(describe(field) + " cannot be read; make it public");
		}
		Object value;
		try {
			value = field.get(null);
		}
		catch (IllegalAccessException ex) {
			throw new IllegalArgumentException(describe(field) + " cannot be read; make it public", ex);
		}
		if (value == null) {
			throw new IllegalArgumentException(describe(field) + " is null");
		}
		return (Signal<?>) value;
	}

	private static String describe(Field field) {
		return "Signal field " + field.getDeclaringClass().getName() + "." + field.getName();
	}

	/** Whether the name is declared. */
	public boolean declares(String name) {
		return this.types.containsKey(name);
	}

	/**
	 * The declared payload type of a name: the {@code Signal} field's, or {@code null}
	 * when the name is declared by {@code @Workflow(receives)} only (the receiving call
	 * types it).
	 */
	public Type payloadType(String name) {
		return this.types.get(name);
	}

	/** The declared names, in declaration order (annotation first). */
	public Set<String> names() {
		return Collections.unmodifiableSet(this.types.keySet());
	}

}
