package dev.durable.workflow.web;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.InitBinder;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Errors of the generated endpoints as RFC 9457 problem details with a stable
 * {@code code} and a message a person can act on; never a stack trace or a class name
 * (see {@link DurableProblems}). Ahead of the application's own advice (it applies to
 * these controllers only), so an application-wide handler, Spring Boot's included, does
 * not answer for them without a code.
 */
@RestControllerAdvice(
		assignableTypes = { WorkflowRestController.class, WorkflowMessageController.class, ScheduleRestController.class,
				ActivityCompletionController.class, QueueRestController.class, BatchRestController.class,
				WorkflowOutputController.class, DebounceRestController.class, ReplayCheckRestController.class,
				ActivityOperationsRestController.class, BuildRestController.class, TopicRestController.class })
@Order(Ordered.HIGHEST_PRECEDENCE + 100)
public class WorkflowProblems {

	/** Spring Security translates these itself (401, 403): they pass through. */
	private static final String[] SECURITY_EXCEPTIONS = { "org.springframework.security.access.AccessDeniedException",
			"org.springframework.security.core.AuthenticationException" };

	/**
	 * Path variables, parameters and headers bound as strings refuse a NUL character
	 * (U+0000).
	 */
	@InitBinder
	void refuseNulCharacters(WebDataBinder binder) {
		binder.registerCustomEditor(String.class, new NulCharacterException.Editor());
	}

	@ExceptionHandler(Exception.class)
	ResponseEntity<ProblemDetail> problem(Exception ex) throws Exception {
		if (isSecurityException(ex)) {
			throw ex;
		}
		return DurableProblems.of(ex);
	}

	private static boolean isSecurityException(Exception ex) {
		for (Class<?> type = ex.getClass(); type != null; type = type.getSuperclass()) {
			for (String name : SECURITY_EXCEPTIONS) {
				if (type.getName().equals(name)) {
					return true;
				}
			}
		}
		return false;
	}

}
