package dev.durable.workflow.internal.registry;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.UpdateValidator;
import dev.durable.workflow.engine.HandlerKind;
import dev.durable.workflow.payload.EncodedValue;

/**
 * The signal, query and update handlers of a workflow class, by name, plus its dynamic
 * handlers (which receive names no named handler matches).
 */
public final class MessageHandlers {

	/**
	 * One handler method.
	 *
	 * @param name the message name ({@code null} for a dynamic handler)
	 * @param method the method
	 * @param dynamic whether it takes {@code (String name, EncodedValue payload)}
	 */
	public record Handler(String name, Method method, boolean dynamic) {

		/** The payload type, or {@code null} when the handler takes none. */
		public Type payloadType() {
			if (this.dynamic) {
				return EncodedValue.class;
			}
			return (this.method.getParameterCount() == 1) ? this.method.getGenericParameterTypes()[0] : null;
		}

	}

	private final Map<HandlerKind, Map<String, Handler>> named = new LinkedHashMap<>();

	private final Map<HandlerKind, Handler> dynamic = new LinkedHashMap<>();

	private final Map<String, Method> validators = new LinkedHashMap<>();

	static MessageHandlers of(Class<?> workflowClass) {
		MessageHandlers handlers = new MessageHandlers();
		for (HandlerKind kind : HandlerKind.values()) {
			handlers.named.put(kind, new LinkedHashMap<>());
		}
		for (Method method : workflowClass.getMethods()) {
			SignalMethod signal = method.getAnnotation(SignalMethod.class);
			if (signal != null) {
				handlers.add(HandlerKind.SIGNAL, signal.name(), signal.dynamic(), method);
			}
			QueryMethod query = method.getAnnotation(QueryMethod.class);
			if (query != null) {
				handlers.add(HandlerKind.QUERY, query.name(), query.dynamic(), method);
				if (method.getReturnType() == void.class) {
					throw new IllegalArgumentException("@QueryMethod " + method + " must return a value");
				}
			}
			UpdateMethod update = method.getAnnotation(UpdateMethod.class);
			if (update != null) {
				handlers.add(HandlerKind.UPDATE, update.name(), update.dynamic(), method);
			}
		}
		for (Method method : workflowClass.getMethods()) {
			UpdateValidator validator = method.getAnnotation(UpdateValidator.class);
			if (validator == null) {
				continue;
			}
			Handler update = handlers.named.get(HandlerKind.UPDATE).get(validator.update());
			if (update == null) {
				throw new IllegalArgumentException(
						"@UpdateValidator " + method + " names no @UpdateMethod '" + validator.update() + "'");
			}
			if (method.getReturnType() != void.class
					|| !java.util.Arrays.equals(method.getParameterTypes(), update.method().getParameterTypes())) {
				throw new IllegalArgumentException("@UpdateValidator " + method
						+ " must return void and take the same parameter as " + update.method());
			}
			handlers.validators.put(validator.update(), method);
		}
		return handlers;
	}

	private void add(HandlerKind kind, String name, boolean isDynamic, Method method) {
		if (!isDynamic) {
			PayloadTypes.check(method,
					kind.name().charAt(0) + kind.name().substring(1).toLowerCase(java.util.Locale.ROOT) + " handler");
		}
		if (isDynamic) {
			Class<?>[] types = method.getParameterTypes();
			if (types.length != 2 || types[0] != String.class || types[1] != EncodedValue.class) {
				throw new IllegalArgumentException("Dynamic handler " + method + " must take (String, EncodedValue)");
			}
			if (this.dynamic.put(kind, new Handler(null, method, true)) != null) {
				throw new IllegalArgumentException("More than one dynamic " + kind.name().toLowerCase() + " handler in "
						+ method.getDeclaringClass().getName());
			}
			return;
		}
		if (method.getParameterCount() > 1) {
			throw new IllegalArgumentException(
					"Handler " + method + " takes more than one parameter; use a record for several values");
		}
		String handlerName = name.isEmpty() ? method.getName() : name;
		if (this.named.get(kind).put(handlerName, new Handler(handlerName, method, false)) != null) {
			throw new IllegalArgumentException("Two " + kind.name().toLowerCase() + " handlers named '" + handlerName
					+ "' in " + method.getDeclaringClass().getName());
		}
	}

	/** The handler for a name: the named one, else the dynamic one, else {@code null}. */
	public Handler find(HandlerKind kind, String name) {
		Handler handler = this.named.get(kind).get(name);
		return (handler != null) ? handler : this.dynamic.get(kind);
	}

	public Method validator(String updateName) {
		return this.validators.get(updateName);
	}

	/** Names of the named handlers of a kind. */
	public Set<String> names(HandlerKind kind) {
		return Collections.unmodifiableSet(this.named.get(kind).keySet());
	}

	public boolean hasDynamic(HandlerKind kind) {
		return this.dynamic.containsKey(kind);
	}

	/** The handler a method reference names, or {@code null}. */
	public Handler byMethod(Method method) {
		for (Map<String, Handler> byName : this.named.values()) {
			for (Handler handler : byName.values()) {
				if (handler.method().equals(method)) {
					return handler;
				}
			}
		}
		return null;
	}

}
