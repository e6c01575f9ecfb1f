package dev.durable.workflow.test.spring;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Registered in {@code META-INF/spring.factories}: activates {@link DurableWorkflowTest}.
 */
final class DurableWorkflowTestContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		DurableWorkflowTest annotation = TestContextAnnotationUtils.findMergedAnnotation(testClass,
				DurableWorkflowTest.class);
		return (annotation != null) ? new DurableWorkflowTestContextCustomizer(annotation.embeddedDatabase(),
				annotation.autoTimeSkipping(), annotation.startTime()) : null;
	}

}
