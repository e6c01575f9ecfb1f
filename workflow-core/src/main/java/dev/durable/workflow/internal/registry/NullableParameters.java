package dev.durable.workflow.internal.registry;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Method;

/**
 * Whether a parameter may be {@code null}: a reference type annotated {@code @Nullable}
 * of any library (JSpecify's on the type, Jakarta's, JSR-305's or Spring's on the
 * parameter), recognised by the annotation's simple name.
 */
final class NullableParameters {

	private NullableParameters() {
	}

	static boolean mayBeNull(Method method, int index) {
		if (method.getParameterTypes()[index].isPrimitive()) {
			return false;
		}
		AnnotatedType type = method.getAnnotatedParameterTypes()[index];
		return nullable(type.getAnnotations()) || nullable(method.getParameterAnnotations()[index]);
	}

	private static boolean nullable(Annotation[] annotations) {
		for (Annotation annotation : annotations) {
			if (annotation.annotationType().getSimpleName().equals("Nullable")) {
				return true;
			}
		}
		return false;
	}

}
