package dev.durable.workflow.autoconfigure;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.ResourceLoaderAware;
import org.springframework.context.annotation.ClassPathBeanDefinitionScanner;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.MethodMetadata;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

import dev.durable.workflow.activity.Activity;

/**
 * Makes every concrete {@code @Activity} class of the application's packages a singleton
 * bean, unless the application already defines a bean of that class (or a subclass), for
 * example with {@code @Component} or a {@code @Bean} method. An {@code @Activity}
 * interface needs an implementation that is a bean.
 */
final class ActivityBeanRegistrar
		implements BeanDefinitionRegistryPostProcessor, EnvironmentAware, ResourceLoaderAware {

	private @Nullable Environment environment;

	private @Nullable ResourceLoader resourceLoader;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void setResourceLoader(ResourceLoader resourceLoader) {
		this.resourceLoader = resourceLoader;
	}

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
		if (!(registry instanceof BeanFactory beanFactory)) {
			return;
		}
		List<String> packages = WorkflowScanner.packages(beanFactory);
		if (packages.isEmpty()) {
			return;
		}
		ClassLoader classLoader = (this.resourceLoader != null) ? this.resourceLoader.getClassLoader()
				: ClassUtils.getDefaultClassLoader();
		Set<Class<?>> declared = declaredTypes(registry, classLoader);
		ClassPathBeanDefinitionScanner scanner = new ClassPathBeanDefinitionScanner(registry, false, this.environment,
				this.resourceLoader);
		scanner.setIncludeAnnotationConfig(false);
		scanner.addIncludeFilter(new AnnotationTypeFilter(Activity.class));
		scanner.addExcludeFilter((reader, factory) -> {
			String className = reader.getClassMetadata().getClassName();
			Class<?> candidate = ClassUtils.resolveClassName(className, classLoader);
			return declared.stream().anyMatch(candidate::isAssignableFrom);
		});
		scanner.scan(packages.toArray(String[]::new));
	}

	/** The classes of the beans defined so far, as far as known without creating them. */
	private static Set<Class<?>> declaredTypes(BeanDefinitionRegistry registry, @Nullable ClassLoader classLoader) {
		Set<Class<?>> types = new HashSet<>();
		for (String name : registry.getBeanDefinitionNames()) {
			BeanDefinition definition = registry.getBeanDefinition(name);
			String className = definition.getBeanClassName();
			if (definition instanceof AnnotatedBeanDefinition annotated) {
				MethodMetadata factoryMethod = annotated.getFactoryMethodMetadata();
				if (factoryMethod != null) {
					className = factoryMethod.getReturnTypeName();
				}
			}
			if (className != null && ClassUtils.isPresent(className, classLoader)) {
				types.add(ClassUtils.resolveClassName(className, classLoader));
			}
		}
		return types;
	}

}
