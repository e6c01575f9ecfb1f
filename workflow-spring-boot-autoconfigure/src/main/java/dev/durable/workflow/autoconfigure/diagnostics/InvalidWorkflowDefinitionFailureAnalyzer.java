package dev.durable.workflow.autoconfigure.diagnostics;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

import dev.durable.workflow.failure.InvalidWorkflowDefinitionException;

/**
 * Reports a workflow class that Durable refused at startup: which class, and the rule it
 * breaks (the exception's message names the method where there is one).
 */
final class InvalidWorkflowDefinitionFailureAnalyzer extends AbstractFailureAnalyzer<InvalidWorkflowDefinitionException>
		implements Ordered {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidWorkflowDefinitionException cause) {
		String description = "Durable could not register the workflow class " + cause.workflowClassName() + ":"
				+ System.lineSeparator() + System.lineSeparator() + "    " + cause.getMessage();
		String action = "Change " + simpleName(cause.workflowClassName()) + " as described above. A workflow class"
				+ " is concrete, annotated with @Workflow (one class per type name), has exactly one public"
				+ " @WorkflowRun method taking at most one parameter, and its run and handler methods take and"
				+ " return data that can be recorded as JSON (records, strings, numbers, collections), never a"
				+ " stream, a connection or a callback; it is created for each run, never proxied, so it carries no"
				+ " @Transactional. If the class is not meant to be a workflow, remove @Workflow from it or move it"
				+ " out of the packages of the @SpringBootApplication class, where Durable looks for workflows.";
		return new FailureAnalysis(description, action, cause);
	}

	static String simpleName(String className) {
		return className.substring(className.lastIndexOf('.') + 1).replace('$', '.');
	}

	/**
	 * Before Spring Boot's own analyzers, which would report the bean that failed, not
	 * why.
	 */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 10;
	}

}
