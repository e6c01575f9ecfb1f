package dev.durable.workflow.autoconfigure.failtypes;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

/**
 * An application whose only workflow throws an exception type its annotation does not
 * list.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class FailTypesConfiguration {

}
