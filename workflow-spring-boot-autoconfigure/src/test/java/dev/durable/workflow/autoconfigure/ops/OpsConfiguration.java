package dev.durable.workflow.autoconfigure.ops;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

/**
 * An application for the actuator, health and metrics tests: a workflow that completes
 * through a retried activity, one that waits, one whose workflow task fails.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class OpsConfiguration {

}
