package dev.durable.workflow.autoconfigure.broken.norun;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

import dev.durable.workflow.Workflow;

/** An application with a workflow class that has no run method. */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class NoRunConfiguration {

	/** Forgot its {@code @WorkflowRun}. */
	@Workflow("aimless")
	public static class Aimless {

		public String run() {
			return "nothing";
		}

	}

}
