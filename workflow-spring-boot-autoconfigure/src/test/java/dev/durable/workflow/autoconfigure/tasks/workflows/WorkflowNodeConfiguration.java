package dev.durable.workflow.autoconfigure.tasks.workflows;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

/**
 * A node with the workflow and no bean implementing its activity: that runs on the gpu
 * nodes.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class WorkflowNodeConfiguration {

}
