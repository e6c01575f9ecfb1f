package dev.durable.workflow.autoconfigure.transactional;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

/** An application whose package holds a workflow with {@code @Transactional}. */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class TransactionalConfiguration {

}
