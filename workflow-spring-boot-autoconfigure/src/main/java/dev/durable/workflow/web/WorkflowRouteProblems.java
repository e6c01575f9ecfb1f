package dev.durable.workflow.web;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Problems for requests under the base path that no generated endpoint takes (an unknown
 * path, a method the path does not take): Spring MVC raises these before a controller is
 * chosen, so {@link WorkflowProblems} cannot see them. Any other path is left to the
 * application (the exception is rethrown, and Spring MVC's own handling answers); an
 * application's advice for these exceptions comes first.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class WorkflowRouteProblems {

	private final String basePath;

	/**
	 * Problems for the requests under a base path.
	 * @param basePath the base path of the generated endpoints
	 * ({@code durable.workflow.web.base-path})
	 */
	public WorkflowRouteProblems(String basePath) {
		this.basePath = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
	}

	@ExceptionHandler({ NoResourceFoundException.class, NoHandlerFoundException.class,
			HttpRequestMethodNotSupportedException.class, HttpMediaTypeNotSupportedException.class,
			HttpMediaTypeNotAcceptableException.class })
	ResponseEntity<ProblemDetail> problem(Exception ex, HttpServletRequest request) throws Exception {
		String path = request.getRequestURI().substring(request.getContextPath().length());
		if (!path.equals(this.basePath) && !path.startsWith(this.basePath + "/")) {
			throw ex;
		}
		return DurableProblems.of(ex);
	}

}
