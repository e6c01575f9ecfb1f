package dev.durable.workflow.autoconfigure.diagnostics;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

import dev.durable.workflow.failure.InvalidActivityDefinitionException;

/**
 * Reports an activity that Durable refused at startup: which type, which method, and the
 * rule it breaks.
 */
final class InvalidActivityDefinitionFailureAnalyzer extends AbstractFailureAnalyzer<InvalidActivityDefinitionException>
		implements Ordered {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidActivityDefinitionException cause) {
		String description = "Durable could not register the activity " + cause.activityClassName() + ":"
				+ System.lineSeparator() + System.lineSeparator() + "    " + cause.getMessage();
		String action = "Change " + InvalidWorkflowDefinitionFailureAnalyzer.simpleName(cause.activityClassName())
				+ " as described above. Every public method of an @Activity type is an activity: its parameters"
				+ " and result are recorded as JSON, so they are data (records, strings, numbers, collections,"
				+ " bytes) or references to data (an id, a path, a URL), never a stream, a connection or a"
				+ " callback; @ActivityMethod durations are ISO-8601 (PT30S); two activity types of one name are"
				+ " told apart with @ActivityMethod(name = ...) or @Activity(namePrefix = ...). A helper that is"
				+ " not an activity belongs in a bean without @Activity.";
		return new FailureAnalysis(description, action, cause);
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
