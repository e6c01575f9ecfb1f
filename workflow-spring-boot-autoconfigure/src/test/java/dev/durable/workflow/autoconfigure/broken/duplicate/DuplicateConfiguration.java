package dev.durable.workflow.autoconfigure.broken.duplicate;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** An application with two workflow classes of one type name. */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class DuplicateConfiguration {

	/** The first "twin". */
	@Workflow("twin")
	public static class FirstTwin {

		@WorkflowRun
		public String run() {
			return "first";
		}

	}

	/** The second "twin". */
	@Workflow("twin")
	public static class SecondTwin {

		@WorkflowRun
		public String run() {
			return "second";
		}

	}

}
