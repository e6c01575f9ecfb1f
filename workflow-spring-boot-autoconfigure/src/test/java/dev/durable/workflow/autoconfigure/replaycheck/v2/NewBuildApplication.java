package dev.durable.workflow.autoconfigure.replaycheck.v2;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

/** The new build: the parcel workflow changed without a version. */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class NewBuildApplication {

}
