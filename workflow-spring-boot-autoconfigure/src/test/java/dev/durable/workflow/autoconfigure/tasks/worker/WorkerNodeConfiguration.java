package dev.durable.workflow.autoconfigure.tasks.worker;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A worker-only node: no workflow class, only the activity of its task queue. */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class WorkerNodeConfiguration {

	@Bean
	Transcoder transcoder() {
		return new Transcoder();
	}

}
