package dev.durable.workflow.autoconfigure;

import java.lang.annotation.Annotation;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * Finds classes carrying an annotation in the application's packages (those of
 * {@code @SpringBootApplication}, see {@link AutoConfigurationPackages}).
 */
final class WorkflowScanner {

	private WorkflowScanner() {
	}

	static List<String> packages(BeanFactory beanFactory) {
		return AutoConfigurationPackages.has(beanFactory) ? AutoConfigurationPackages.get(beanFactory) : List.of();
	}

	/** The concrete classes annotated with the annotation, in the packages. */
	static Set<Class<?>> scan(List<String> packages, Class<? extends Annotation> annotation, Environment environment,
			ResourceLoader resourceLoader, @Nullable ClassLoader classLoader) {
		ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false,
				environment);
		scanner.setResourceLoader(resourceLoader);
		scanner.addIncludeFilter(new AnnotationTypeFilter(annotation));
		Set<Class<?>> classes = new LinkedHashSet<>();
		for (String pkg : packages) {
			for (BeanDefinition candidate : scanner.findCandidateComponents(pkg)) {
				classes.add(ClassUtils.resolveClassName(candidate.getBeanClassName(), classLoader));
			}
		}
		return classes;
	}

}
