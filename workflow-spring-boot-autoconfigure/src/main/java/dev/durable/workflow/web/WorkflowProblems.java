package dev.durable.workflow.web;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

import dev.durable.workflow.ApplicationFailure;
import dev.durable.workflow.PayloadException;
import dev.durable.workflow.client.InvalidWorkflowIdException;
import dev.durable.workflow.client.QueryFailedException;
import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowUpdateFailedException;
import dev.durable.workflow.client.WorkflowUpdateRejectedException;

/**
 * Errors of the generated endpoints as RFC 9457 problem details with a stable {@code code}
 * and a message a person can act on; never a stack trace.
 */
@RestControllerAdvice(assignableTypes = { WorkflowRestController.class, WorkflowMessageController.class,
		ScheduleRestController.class, ActivityCompletionController.class, QueueRestController.class })
public class WorkflowProblems {

	private static final Log logger = LogFactory.getLog(WorkflowProblems.class);

	@ExceptionHandler(WorkflowNotFoundException.class)
	ResponseEntity<ProblemDetail> notFound(WorkflowNotFoundException ex) {
		return problem(HttpStatus.NOT_FOUND, "WORKFLOW_NOT_FOUND", ex.getMessage());
	}

	@ExceptionHandler(dev.durable.workflow.client.ScheduleNotFoundException.class)
	ResponseEntity<ProblemDetail> scheduleNotFound(dev.durable.workflow.client.ScheduleNotFoundException ex) {
		return problem(HttpStatus.NOT_FOUND, "SCHEDULE_NOT_FOUND", ex.getMessage());
	}

	@ExceptionHandler(dev.durable.workflow.client.ScheduleAlreadyExistsException.class)
	ResponseEntity<ProblemDetail> scheduleExists(dev.durable.workflow.client.ScheduleAlreadyExistsException ex) {
		return problem(HttpStatus.CONFLICT, "SCHEDULE_ALREADY_EXISTS", ex.getMessage());
	}

	@ExceptionHandler(WorkflowAlreadyStartedException.class)
	ResponseEntity<ProblemDetail> alreadyStarted(WorkflowAlreadyStartedException ex) {
		return problem(HttpStatus.CONFLICT, "WORKFLOW_ALREADY_STARTED", ex.getMessage());
	}

	@ExceptionHandler(WorkflowClosedException.class)
	ResponseEntity<ProblemDetail> closed(WorkflowClosedException ex) {
		return problem(HttpStatus.CONFLICT, "WORKFLOW_CLOSED", ex.getMessage());
	}

	@ExceptionHandler(WorkflowFailedException.class)
	ResponseEntity<ProblemDetail> failed(WorkflowFailedException ex) {
		ResponseEntity<ProblemDetail> problem = problem(HttpStatus.CONFLICT, "WORKFLOW_FAILED", ex.getMessage());
		problem.getBody().setProperty("failure", failure(ex.getCause()));
		return problem;
	}

	@ExceptionHandler(UnknownWorkflowTypeException.class)
	ResponseEntity<ProblemDetail> unknownType(UnknownWorkflowTypeException ex) {
		return problem(HttpStatus.BAD_REQUEST, "UNKNOWN_TYPE", ex.getMessage());
	}

	@ExceptionHandler(UnknownHandlerException.class)
	ResponseEntity<ProblemDetail> unknownHandler(UnknownHandlerException ex) {
		return problem(HttpStatus.NOT_FOUND, "UNKNOWN_HANDLER", ex.getMessage());
	}

	@ExceptionHandler(InvalidWorkflowIdException.class)
	ResponseEntity<ProblemDetail> invalidId(InvalidWorkflowIdException ex) {
		return problem(HttpStatus.BAD_REQUEST, "INVALID_ID", ex.getMessage());
	}

	@ExceptionHandler(PayloadException.class)
	ResponseEntity<ProblemDetail> payload(PayloadException ex) {
		return ex.isTooLarge() ? problem(HttpStatus.CONTENT_TOO_LARGE, "PAYLOAD_TOO_LARGE", ex.getMessage())
				: problem(HttpStatus.BAD_REQUEST, "INVALID_PAYLOAD", ex.getMessage());
	}

	@ExceptionHandler(WebPayloads.NotJsonException.class)
	ResponseEntity<ProblemDetail> notJson(WebPayloads.NotJsonException ex) {
		return problem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "INVALID_PAYLOAD", ex.getMessage());
	}

	@ExceptionHandler(ActivityCompletionController.InvalidTokenException.class)
	ResponseEntity<ProblemDetail> invalidToken(ActivityCompletionController.InvalidTokenException ex) {
		return problem(HttpStatus.BAD_REQUEST, "INVALID_TOKEN", ex.getMessage());
	}

	@ExceptionHandler({ IllegalArgumentException.class, MethodArgumentTypeMismatchException.class })
	ResponseEntity<ProblemDetail> invalid(Exception ex) {
		String message = (ex instanceof MethodArgumentTypeMismatchException mismatch)
				? "Parameter '" + mismatch.getName() + "' has an invalid value: " + mismatch.getValue()
				: ex.getMessage();
		return problem(HttpStatus.BAD_REQUEST, "INVALID_PAYLOAD", message);
	}

	@ExceptionHandler(IllegalStateException.class)
	ResponseEntity<ProblemDetail> conflict(IllegalStateException ex) {
		return problem(HttpStatus.CONFLICT, "CONFLICT", ex.getMessage());
	}

	@ExceptionHandler(WorkflowUpdateRejectedException.class)
	ResponseEntity<ProblemDetail> rejected(WorkflowUpdateRejectedException ex) {
		ResponseEntity<ProblemDetail> problem = problem(HttpStatus.UNPROCESSABLE_CONTENT, "UPDATE_REJECTED",
				ex.getMessage());
		problem.getBody().setProperty("failure", failure(ex.getCause()));
		return problem;
	}

	@ExceptionHandler(WorkflowUpdateFailedException.class)
	ResponseEntity<ProblemDetail> updateFailed(WorkflowUpdateFailedException ex) {
		ResponseEntity<ProblemDetail> problem = problem(HttpStatus.CONFLICT, "UPDATE_FAILED", ex.getMessage());
		problem.getBody().setProperty("failure", failure(ex.getCause()));
		return problem;
	}

	@ExceptionHandler(QueryFailedException.class)
	ResponseEntity<ProblemDetail> queryFailed(QueryFailedException ex) {
		return problem(HttpStatus.UNPROCESSABLE_CONTENT, "QUERY_FAILED", ex.getMessage());
	}

	@ExceptionHandler(WebAccess.ReadOnlyException.class)
	ResponseEntity<ProblemDetail> readOnly(WebAccess.ReadOnlyException ex) {
		return problem(HttpStatus.FORBIDDEN, "READ_ONLY", ex.getMessage());
	}

	@ExceptionHandler(WebAccess.OperationRefusedException.class)
	ResponseEntity<ProblemDetail> refused(WebAccess.OperationRefusedException ex) {
		return problem(ex.status(), ex.code(), ex.getMessage());
	}

	@ExceptionHandler(RuntimeException.class)
	ResponseEntity<ProblemDetail> unexpected(RuntimeException ex) {
		logger.error("Workflow API request failed", ex);
		return problem(HttpStatus.INTERNAL_SERVER_ERROR, "INTERNAL_ERROR",
				"The request failed on the server (" + ex.getClass().getSimpleName() + "); see the server log");
	}

	static ResponseEntity<ProblemDetail> problem(HttpStatus status, String code, String message) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, message);
		problem.setProperty("code", code);
		return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
	}

	/** A failure as JSON: type, message, non-retryable flag and the cause chain. */
	static @Nullable Map<String, Object> failure(@Nullable Throwable failure) {
		if (failure == null) {
			return null;
		}
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("class", failure.getClass().getSimpleName());
		if (failure instanceof ApplicationFailure application) {
			json.put("type", application.getType());
			json.put("nonRetryable", application.isNonRetryable());
		}
		json.put("message", failure.getMessage());
		if (failure.getCause() != null && failure.getCause() != failure) {
			json.put("cause", failure(failure.getCause()));
		}
		return json;
	}

}
