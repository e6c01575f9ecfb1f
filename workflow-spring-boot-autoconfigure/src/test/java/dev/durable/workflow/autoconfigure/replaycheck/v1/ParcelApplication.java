package dev.durable.workflow.autoconfigure.replaycheck.v1;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

/** An application with the parcel workflow of its build. */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class ParcelApplication {

}
