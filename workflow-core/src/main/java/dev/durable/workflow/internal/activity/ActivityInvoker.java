package dev.durable.workflow.internal.activity;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.internal.registry.ActivityDefinition;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.payload.EncodedValue;

/**
 * Calls a registered activity's method with its stored arguments, and encodes its result:
 * the same for inline attempts and attempts claimed from a task queue. Bad arguments and
 * results that cannot be encoded fail the attempt for good (no retry mends them).
 */
public final class ActivityInvoker {

	private final ActivityRegistry registry;

	private final Payloads payloads;

	public ActivityInvoker(ActivityRegistry registry, Payloads payloads) {
		this.registry = registry;
		this.payloads = payloads;
	}

	/** Runs the method; what it throws is the attempt's failure. */
	/**
	 * {@link #invoke} as a {@link java.util.concurrent.Callable} body (what interceptors
	 * wrap): a throwable that is neither an exception nor an error passes through
	 * unchanged.
	 */
	public Object call(String activityType, byte[] input) throws Exception {
		try {
			return invoke(activityType, input);
		}
		catch (Exception | Error ex) {
			throw ex;
		}
		catch (Throwable other) {
			throw ActivityInvoker.<RuntimeException>unchecked(other);
		}
	}

	@SuppressWarnings("unchecked")
	private static <T extends Throwable> T unchecked(Throwable failure) throws T {
		throw (T) failure;
	}

	public Object invoke(String activityType, byte[] input) throws Throwable {
		ActivityDefinition definition = this.registry.find(activityType);
		if (definition == null || definition.target() == null) {
			throw ApplicationFailure.newNonRetryableFailure(
					"No activity of type '" + activityType + "' is registered on this node", "UnknownActivityType");
		}
		Method method = definition.method();
		List<byte[]> parts = InternalJson.unpack(input);
		if (this.registry.isDynamic(definition)) {
			EncodedValue[] arguments = new EncodedValue[parts.size()];
			for (int i = 0; i < arguments.length; i++) {
				arguments[i] = EncodedValue.of(parts.get(i), this.payloads.converter());
			}
			return call(method, definition.target(), new Object[] { activityType, arguments });
		}
		Object[] args = new Object[method.getParameterCount()];
		for (int i = 0; i < args.length; i++) {
			byte[] part = (i < parts.size()) ? parts.get(i) : null;
			try {
				args[i] = this.payloads.decode(part, method.getGenericParameterTypes()[i],
						"argument " + i + " of activity " + activityType);
			}
			catch (RuntimeException ex) {
				throw ApplicationFailure.newNonRetryableFailure(ex.getMessage(), "PayloadException");
			}
		}
		return call(method, definition.target(), args);
	}

	private static Object call(Method method, Object target, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException();
		}
	}

	/**
	 * Whether the activity type is a transactional activity here (see
	 * {@code ActivityMethod#transactional}).
	 */
	public boolean isTransactional(String activityType) {
		ActivityDefinition definition = this.registry.find(activityType);
		ActivityMethod annotation = (definition != null) ? definition.method().getAnnotation(ActivityMethod.class)
				: null;
		return annotation != null && annotation.transactional();
	}

	/**
	 * Encodes a result as the activity's declared return type (as {@code Object} when the
	 * type is not registered here: a completion from another node).
	 * @throws ApplicationFailure (non-retryable, type {@code PayloadException}) when it
	 * cannot be encoded
	 */
	public byte[] encodeResult(String activityType, Object result) {
		ActivityDefinition definition = this.registry.find(activityType);
		try {
			return this.payloads.encode(result,
					(definition != null && !this.registry.isDynamic(definition))
							? definition.method().getGenericReturnType() : Object.class,
					"the result of activity " + activityType);
		}
		catch (RuntimeException ex) {
			throw ApplicationFailure.newNonRetryableFailure(ex.getMessage(), "PayloadException");
		}
	}

}
