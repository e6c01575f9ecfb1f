package dev.durable.workflow.internal.client;

import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;

/** Reads which method a serializable method reference names. */
final class MethodReferences {

	private MethodReferences() {
	}

	static Method resolve(Serializable reference) {
		SerializedLambda lambda;
		try {
			Method writeReplace = reference.getClass().getDeclaredMethod("writeReplace");
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
					reference.getClass().getClassLoader());
			for (Method method : type.getMethods()) {
				if (method.getName().equals(lambda.getImplMethodName())
						&& describe(method).equals(lambda.getImplMethodSignature())) {
					return method;
				}
			}
			throw new IllegalArgumentException("Method " + lambda.getImplMethodName() + " of " + type.getName()
					+ " is not public");
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
