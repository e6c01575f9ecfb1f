package dev.durable.workflow.internal.registry;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.activity.ActivityOptions;

/**
 * One activity method of a registered bean.
 *
 * @param name the activity type name
 * @param target the bean that runs it
 * @param method the method
 * @param options the options from {@code @ActivityMethod}, over the engine defaults
 */
public record ActivityDefinition(String name, Object target, Method method, ActivityOptions options) {

	public static ActivityDefinition of(@org.jspecify.annotations.Nullable Object target, Method method,
			ActivityOptions defaults) {
		PayloadTypes.check(method, "Activity method");
		ActivityMethod annotation = method.getAnnotation(ActivityMethod.class);
		if (annotation == null) {
			return new ActivityDefinition(typeName(method), target, method, defaults);
		}
		return new ActivityDefinition(typeName(method), target, method, merge(annotation, defaults, method));
	}

	/**
	 * The activity type name of a method: {@code @ActivityMethod(name)} as given, else
	 * the method name after the {@code namePrefix} of the {@code @Activity} type that
	 * declares it.
	 */
	public static String typeName(Method method) {
		ActivityMethod annotation = method.getAnnotation(ActivityMethod.class);
		if (annotation != null && !annotation.name().isEmpty()) {
			return annotation.name();
		}
		Activity activity = method.getDeclaringClass().getAnnotation(Activity.class);
		return ((activity != null) ? activity.namePrefix() : "") + method.getName();
	}

	private static ActivityOptions merge(ActivityMethod a, ActivityOptions defaults, Method method) {
		RetryPolicy retry = defaults.retryPolicy();
		RetryPolicy.Builder rb = retry.toBuilder();
		if (a.pauseWhenExhausted()) {
			rb.pauseWhenExhausted();
		}
		if (a.maxAttempts() > 0) {
			rb.maximumAttempts(a.maxAttempts());
		}
		if (a.backoffCoefficient() > 0) {
			rb.backoffCoefficient(a.backoffCoefficient());
		}
		Duration initial = parse(a.initialInterval(), method);
		if (initial != null) {
			rb.initialInterval(initial);
		}
		Duration maxInterval = parse(a.maximumInterval(), method);
		if (maxInterval != null) {
			rb.maximumInterval(maxInterval);
		}
		if (a.nonRetryableErrorTypes().length > 0) {
			rb.nonRetryableErrorTypes(a.nonRetryableErrorTypes());
		}
		ActivityOptions.Builder b = defaults.toBuilder().retryPolicy(rb.build());
		Duration startToClose = parse(a.startToCloseTimeout(), method);
		if (startToClose != null) {
			b.startToCloseTimeout(startToClose);
		}
		Duration scheduleToClose = parse(a.scheduleToCloseTimeout(), method);
		if (scheduleToClose != null) {
			b.scheduleToCloseTimeout(scheduleToClose);
		}
		Duration heartbeat = parse(a.heartbeatTimeout(), method);
		if (heartbeat != null) {
			b.heartbeatTimeout(heartbeat);
		}
		Duration scheduleToStart = parse(a.scheduleToStartTimeout(), method);
		if (scheduleToStart != null) {
			b.scheduleToStartTimeout(scheduleToStart);
		}
		if (!a.taskQueue().isBlank()) {
			if (a.transactional()) {
				throw new IllegalArgumentException(
						"@ActivityMethod on " + method + " is transactional and has task queue '" + a.taskQueue()
								+ "': a transactional activity runs inline on the node that owns its run; remove"
								+ " one of the two");
			}
			b.taskQueue(a.taskQueue());
		}
		return b.build();
	}

	private static Duration parse(String value, Method method) {
		if (value == null || value.isBlank()) {
			return null;
		}
		try {
			Duration duration = Duration.parse(value);
			return duration.isZero() ? null : duration;
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("@ActivityMethod on " + method + " has an invalid ISO-8601 duration '"
					+ value + "' (example: PT30S)", ex);
		}
	}

	List<String> describe() {
		return List.of(this.name, this.method.toGenericString());
	}

}
