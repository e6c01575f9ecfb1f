package dev.durable.docs.restapi;

import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import dev.durable.workflow.web.DurableProblems;

/** An application's advice that answers errors as the generated endpoints do. */
@RestControllerAdvice
class ProblemAdvice {

	// @formatter:off
	// snippet:rest-api-problems
	@ExceptionHandler(Exception.class)
	ResponseEntity<ProblemDetail> problem(Exception ex) {
	    return DurableProblems.of(ex);
	}
	// end-snippet
	// @formatter:on

}
