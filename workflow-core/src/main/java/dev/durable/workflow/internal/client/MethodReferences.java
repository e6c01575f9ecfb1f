package dev.durable.workflow.internal.client;

import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads which method a serializable method reference names. The answer depends only on
 * the reference's class (one per method reference in the source), so it is read once per
 * class: a start or signal through a method reference does not pay for reflection each
 * time.
 */
final class MethodReferences {

	/**
	 * Per reference class, the method once read (a ClassValue keeps no class loader
	 * alive).
	 */
	private static final ClassValue<AtomicReference<Method>> RESOLVED = new ClassValue<>() {
		@Override
		protected AtomicReference<Method> computeValue(Class<?> type) {
			return new AtomicReference<>();
		}
	};

	private MethodReferences() {
	}

	static Method resolve(Serializable reference) {
		AtomicReference<Method> known = RESOLVED.get(reference.getClass());
		Method method = known.get();
		if (method == null) {
			// a lambda or an unusable reference throws here, each time it is passed
			method = read(reference);
			known.set(method);
		}
		return method;
	}

	private static Method read(Serializable reference) {
		Class<?> referenceType = reference.getClass();
		SerializedLambda lambda;
		try {
			Method writeReplace = referenceType.getDeclaredMethod("writeReplace");
			writeReplace.setAccessible(true);
			lambda = (SerializedLambda) writeReplace.invoke(reference);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			throw new IllegalArgumentException("Pass a method reference such as MyWorkflow::run, not " + reference, ex);
		}
		if (lambda.getImplMethodName().startsWith("lambda$")) {
			throw new IllegalArgumentException(
					"Pass a method reference such as MyWorkflow::run, not a lambda: " + lambda.getImplMethodName());
		}
		try {
			Class<?> type = Class.forName(lambda.getImplClass().replace('/', '.'), false,
					referenceType.getClassLoader());
			for (Method method : type.getMethods()) {
				if (method.getName().equals(lambda.getImplMethodName())
						&& describe(method).equals(lambda.getImplMethodSignature())) {
					return method;
				}
			}
			throw new IllegalArgumentException(
					"Method " + lambda.getImplMethodName() + " of " + type.getName() + " is not public");
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalArgumentException("Cannot load " + lambda.getImplClass(), ex);
		}
	}

	private static String describe(Method method) {
		StringBuilder sb = new StringBuilder("(");
		for (Class<?> parameter : method.getParameterTypes()) {
			sb.append(parameter.descriptorString());
		}
		return sb.append(')').append(method.getReturnType().descriptorString()).toString();
	}

}
