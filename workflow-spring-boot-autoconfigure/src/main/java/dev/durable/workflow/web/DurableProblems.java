package dev.durable.workflow.web;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.core.JacksonException;

import dev.durable.workflow.client.ActivityNotPendingException;
import dev.durable.workflow.client.InvalidWorkflowIdException;
import dev.durable.workflow.client.QueryFailedException;
import dev.durable.workflow.client.StartCanceledException;
import dev.durable.workflow.client.StartDroppedException;
import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowUpdateFailedException;
import dev.durable.workflow.client.WorkflowUpdateRejectedException;
import dev.durable.workflow.client.batch.BatchIdConflictException;
import dev.durable.workflow.client.batch.BatchNotFoundException;
import dev.durable.workflow.client.schedule.ScheduleAlreadyExistsException;
import dev.durable.workflow.client.schedule.ScheduleNotFoundException;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.MissingInputException;
import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.failure.PayloadUnreadableException;

/**
 * The problem details (RFC 9457, {@code application/problem+json}) the generated
 * endpoints answer for an exception: a status, a stable {@code code} and a {@code detail}
 * a person can act on, never a stack trace or a class name. An application's own
 * controllers answer the same way by handing their exceptions to {@link #of(Throwable)}:
 *
 * <pre>{@code
 * &#64;ExceptionHandler(Exception.class)
 * ResponseEntity<ProblemDetail> problem(Exception ex) {
 *     return DurableProblems.of(ex);
 * }
 * }</pre>
 *
 * The codes are listed in docs/rest-api.md: for example {@code WORKFLOW_NOT_FOUND} (404),
 * {@code UPDATE_REJECTED} (422), {@code INVALID_PAYLOAD} (400, or 415 for a body that is
 * not JSON) and {@code DATABASE_UNAVAILABLE} (503 with {@code Retry-After}).
 */
public final class DurableProblems {

	/**
	 * Seconds a client is asked to wait ({@code Retry-After}) while the database is
	 * unreachable.
	 */
	static final int DATABASE_RETRY_AFTER_SECONDS = 5;

	private static final Log logger = LogFactory.getLog(DurableProblems.class);

	private DurableProblems() {
	}

	/**
	 * The problem for an exception of a workflow endpoint: the Durable client's
	 * exceptions, bad request parameters and bodies, an unreachable database; anything
	 * else is a 500 {@code INTERNAL_ERROR} whose cause goes to the log only.
	 * @param ex the exception
	 * @return the response to send
	 */
	public static ResponseEntity<ProblemDetail> of(Throwable ex) {
		if (databaseUnavailable(ex)) {
			logger.warn("Workflow API request failed: the database is unreachable (" + rootMessage(ex) + ")");
			HttpHeaders headers = new HttpHeaders();
			headers.set(HttpHeaders.RETRY_AFTER, String.valueOf(DATABASE_RETRY_AFTER_SECONDS));
			return response(HttpStatus.SERVICE_UNAVAILABLE, "DATABASE_UNAVAILABLE",
					"The database is unreachable; retry in a few seconds", headers);
		}
		if (databaseRefusedValue(ex)) {
			return response(HttpStatus.BAD_REQUEST, "INVALID_PAYLOAD",
					"The database refused a value of the request (a NUL character, U+0000, or bytes that are not"
							+ " text); nothing was changed");
		}
		ResponseEntity<ProblemDetail> known = known(ex);
		if (known != null) {
			return known;
		}
		logger.error("Workflow API request failed", ex);
		return response(HttpStatus.INTERNAL_SERVER_ERROR, "INTERNAL_ERROR",
				"The request failed on the server; see the server log");
	}

	/**
	 * A problem response with a stable code.
	 * @param status the HTTP status
	 * @param code the stable code (upper case, e.g. {@code INVALID_PAYLOAD})
	 * @param detail what went wrong, for a person
	 * @return the response
	 */
	public static ResponseEntity<ProblemDetail> response(HttpStatusCode status, String code, @Nullable String detail) {
		return response(status, code, detail, new HttpHeaders());
	}

	private static ResponseEntity<ProblemDetail> response(HttpStatusCode status, String code, @Nullable String detail,
			HttpHeaders headers) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, (detail != null) ? detail : code);
		problem.setProperty("code", code);
		return ResponseEntity.status(status)
			.headers(headers)
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(problem);
	}

	private static @Nullable ResponseEntity<ProblemDetail> known(Throwable ex) {
		if (ex instanceof WorkflowNotFoundException) {
			return response(HttpStatus.NOT_FOUND, "WORKFLOW_NOT_FOUND", ex.getMessage());
		}
		if (ex instanceof ScheduleNotFoundException) {
			return response(HttpStatus.NOT_FOUND, "SCHEDULE_NOT_FOUND", ex.getMessage());
		}
		if (ex instanceof BatchNotFoundException) {
			return response(HttpStatus.NOT_FOUND, "BATCH_NOT_FOUND", ex.getMessage());
		}
		if (ex instanceof BatchIdConflictException) {
			return response(HttpStatus.CONFLICT, "BATCH_ID_CONFLICT", ex.getMessage());
		}
		if (ex instanceof InvalidBatchException invalid) {
			return response(HttpStatus.BAD_REQUEST, invalid.code(), ex.getMessage());
		}
		if (ex instanceof ScheduleAlreadyExistsException) {
			return response(HttpStatus.CONFLICT, "SCHEDULE_ALREADY_EXISTS", ex.getMessage());
		}
		if (ex instanceof WorkflowAlreadyStartedException) {
			return response(HttpStatus.CONFLICT, "WORKFLOW_ALREADY_STARTED", ex.getMessage());
		}
		if (ex instanceof WorkflowClosedException) {
			return response(HttpStatus.CONFLICT, "WORKFLOW_CLOSED", ex.getMessage());
		}
		if (ex instanceof StartDroppedException) {
			// the queue shed the start: the caller may retry later
			return response(HttpStatus.TOO_MANY_REQUESTS, "START_DROPPED", ex.getMessage());
		}
		if (ex instanceof StartCanceledException) {
			return response(HttpStatus.CONFLICT, "START_CANCELED", ex.getMessage());
		}
		if (ex instanceof WorkflowFailedException) {
			return withFailure(HttpStatus.CONFLICT, "WORKFLOW_FAILED", ex);
		}
		if (ex instanceof WorkflowUpdateRejectedException) {
			return withFailure(HttpStatus.UNPROCESSABLE_CONTENT, "UPDATE_REJECTED", ex);
		}
		if (ex instanceof WorkflowUpdateFailedException) {
			return withFailure(HttpStatus.CONFLICT, "UPDATE_FAILED", ex);
		}
		if (ex instanceof QueryFailedException) {
			return response(HttpStatus.UNPROCESSABLE_CONTENT, "QUERY_FAILED", ex.getMessage());
		}
		if (ex instanceof UnknownWorkflowTypeException) {
			return response(HttpStatus.BAD_REQUEST, "UNKNOWN_TYPE", ex.getMessage());
		}
		if (ex instanceof ActivityNotPendingException) {
			return response(HttpStatus.NOT_FOUND, "ACTIVITY_NOT_PENDING", ex.getMessage());
		}
		if (ex instanceof UnknownHandlerException) {
			return response(HttpStatus.NOT_FOUND, "UNKNOWN_HANDLER", ex.getMessage());
		}
		if (ex instanceof InvalidWorkflowIdException) {
			return response(HttpStatus.BAD_REQUEST, "INVALID_ID", ex.getMessage());
		}
		if (ex instanceof PayloadUnreadableException) {
			// stored bytes this node cannot read (a key it lacks): not the caller's
			// input, so not a 4xx
			logger.warn("Workflow API request failed: " + ex.getMessage());
			return response(HttpStatus.INTERNAL_SERVER_ERROR, "PAYLOAD_UNREADABLE", ex.getMessage());
		}
		if (ex instanceof MissingInputException) {
			return response(HttpStatus.BAD_REQUEST, "MISSING_INPUT", ex.getMessage());
		}
		if (ex instanceof PayloadException payload) {
			return payload.isTooLarge() ? response(HttpStatus.CONTENT_TOO_LARGE, "PAYLOAD_TOO_LARGE", ex.getMessage())
					: response(HttpStatus.BAD_REQUEST, "INVALID_PAYLOAD", ex.getMessage());
		}
		if (ex instanceof ActivityCompletionController.InvalidTokenException) {
			return response(HttpStatus.BAD_REQUEST, "INVALID_TOKEN", ex.getMessage());
		}
		if (ex instanceof OutputProblemException output) {
			return response(output.status(), output.code(), ex.getMessage());
		}
		if (ex instanceof WebAccess.ReadOnlyException) {
			return response(HttpStatus.FORBIDDEN, "READ_ONLY", ex.getMessage());
		}
		if (ex instanceof WebAccess.OperationRefusedException refused) {
			return response(refused.status(), refused.code(), ex.getMessage());
		}
		ResponseEntity<ProblemDetail> web = web(ex);
		if (web != null) {
			return web;
		}
		if (ex instanceof IllegalArgumentException) {
			return response(HttpStatus.BAD_REQUEST, "INVALID_PAYLOAD", ex.getMessage());
		}
		if (ex instanceof IllegalStateException) {
			return response(HttpStatus.CONFLICT, "CONFLICT", ex.getMessage());
		}
		return null;
	}

	/** Spring MVC's exceptions, with messages of our own: theirs name Java types. */
	private static @Nullable ResponseEntity<ProblemDetail> web(Throwable ex) {
		if (ex instanceof WebPayloads.NotJsonException) {
			return response(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "INVALID_PAYLOAD", ex.getMessage());
		}
		if (ex instanceof HttpMediaTypeNotSupportedException unsupported) {
			return response(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "INVALID_PAYLOAD",
					WebPayloads.NotJsonException.message(unsupported.getContentType()));
		}
		if (ex instanceof MethodArgumentTypeMismatchException mismatch) {
			if (causedBy(mismatch, NulCharacterException.class)) {
				return response(HttpStatus.BAD_REQUEST,
						"workflowId".equals(mismatch.getName()) ? "INVALID_ID" : "INVALID_PAYLOAD",
						"'" + mismatch.getName() + "' contains a NUL character (U+0000)");
			}
			return response(HttpStatus.BAD_REQUEST, "INVALID_PAYLOAD", "'" + mismatch.getName() + "' must be "
					+ JsonProblems.kind(mismatch.getRequiredType()) + ", not '" + mismatch.getValue() + "'");
		}
		if (ex instanceof MissingServletRequestParameterException missing) {
			return response(HttpStatus.BAD_REQUEST, "INVALID_PAYLOAD",
					"The request needs the parameter '" + missing.getParameterName() + "'");
		}
		if (ex instanceof MissingRequestHeaderException missing) {
			return response(HttpStatus.BAD_REQUEST, "INVALID_PAYLOAD",
					"The request needs the header '" + missing.getHeaderName() + "'");
		}
		if (ex instanceof HttpMessageNotReadableException unreadable) {
			String reason = (unreadable.getCause() instanceof JacksonException jackson) ? JsonProblems.reason(jackson)
					: "it is missing or not valid JSON";
			return response(HttpStatus.BAD_REQUEST, "INVALID_PAYLOAD", "The request body cannot be read: " + reason);
		}
		if (ex instanceof NoResourceFoundException || ex instanceof NoHandlerFoundException) {
			return response(HttpStatus.NOT_FOUND, "NOT_FOUND", "No endpoint has this path");
		}
		if (ex instanceof HttpRequestMethodNotSupportedException method) {
			HttpHeaders headers = new HttpHeaders();
			String takes = "";
			if (method.getSupportedHttpMethods() != null) {
				headers.setAllow(method.getSupportedHttpMethods());
				takes = "; it takes " + method.getSupportedHttpMethods();
			}
			return response(HttpStatus.METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED",
					"This path does not take " + method.getMethod() + takes, headers);
		}
		if (ex instanceof HttpMediaTypeNotAcceptableException) {
			return response(HttpStatus.NOT_ACCEPTABLE, "NOT_ACCEPTABLE",
					"The endpoint answers JSON (application/json, application/problem+json)");
		}
		if (ex instanceof ErrorResponse error) {
			HttpStatusCode status = error.getStatusCode();
			HttpStatus known = HttpStatus.resolve(status.value());
			String code = (known != null) ? known.name() : "HTTP_" + status.value();
			return response(status, code, (known != null) ? known.getReasonPhrase() : "HTTP " + status.value());
		}
		return null;
	}

	private static ResponseEntity<ProblemDetail> withFailure(HttpStatus status, String code, Throwable ex) {
		ResponseEntity<ProblemDetail> problem = response(status, code, ex.getMessage());
		problem.getBody().setProperty("failure", failure(ex.getCause()));
		return problem;
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

	/**
	 * Whether the exception says the database cannot be reached now (no connection,
	 * connection lost, server shutting down or starting), rather than that a statement
	 * failed.
	 */
	static boolean databaseUnavailable(Throwable ex) {
		int depth = 0;
		for (Throwable t = ex; t != null && depth < 20; t = (t.getCause() != t) ? t.getCause() : null, depth++) {
			if (t instanceof DataAccessResourceFailureException || t instanceof TransientDataAccessResourceException
					|| t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
					|| t instanceof ConnectException) {
				return true;
			}
			if (t instanceof SQLException sql && unavailableState(sql.getSQLState())) {
				return true;
			}
			if (t instanceof TransactionSystemException failed && lostConnection(failed)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A connection lost inside a transaction fails the statement, then the rollback; the
	 * rollback's failure (the pool's "Connection is closed", no SQL state) replaces the
	 * statement's, which the exception keeps as its application exception (found by the
	 * chaos harness: a database restart answered 500).
	 */
	private static boolean lostConnection(TransactionSystemException failed) {
		Throwable original = failed.getApplicationException();
		if (original != null && original != failed && databaseUnavailable(original)) {
			return true;
		}
		return failed.getCause() instanceof SQLException sql && sql.getSQLState() == null && failed.getMessage() != null
				&& failed.getMessage().contains("rollback failed");
	}

	/**
	 * Whether the database refused a value the request sent: a NUL character or bytes
	 * that are not text, which PostgreSQL cannot store in text or {@code jsonb} (the
	 * driver refuses a NUL in a parameter itself). The generated endpoints refuse these
	 * before; an application's own controller that hands its exceptions to
	 * {@link #of(Throwable)} gets a 400 all the same.
	 */
	static boolean databaseRefusedValue(Throwable ex) {
		int depth = 0;
		for (Throwable t = ex; t != null && depth < 20; t = (t.getCause() != t) ? t.getCause() : null, depth++) {
			if (t instanceof SQLException sql && sql.getSQLState() != null
					&& Set.of("22021", "22P05", "22023").contains(sql.getSQLState())) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Class 08 (connection exception); 57P01-57P03: admin shutdown, crash shutdown,
	 * cannot connect now.
	 */
	private static boolean unavailableState(@Nullable String state) {
		return state != null
				&& (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03"));
	}

	private static boolean causedBy(Throwable ex, Class<? extends Throwable> type) {
		int depth = 0;
		for (Throwable t = ex; t != null && depth < 20; t = (t.getCause() != t) ? t.getCause() : null, depth++) {
			if (type.isInstance(t)) {
				return true;
			}
		}
		return false;
	}

	private static String rootMessage(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return String.valueOf(root.getMessage());
	}

}
