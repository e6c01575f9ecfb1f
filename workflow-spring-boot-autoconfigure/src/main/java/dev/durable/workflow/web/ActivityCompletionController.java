package dev.durable.workflow.web;

import java.util.Set;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.PayloadException;

/**
 * The generated REST endpoints that finish activity attempts which called
 * {@code ActivityContext.doNotCompleteOnReturn()}, by their task token: complete, fail
 * and heartbeat. Each answers {@code {"applied": true}} when it changed the attempt and
 * {@code {"applied": false}} when the attempt's outcome was already recorded or it is no
 * longer awaited, so a caller may retry a request safely.
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}/activities")
public class ActivityCompletionController {

	private static final String COMPLETE = "{\"token\", \"result\"?}";

	private static final String FAIL = "{\"token\", \"failure\": {\"type\"?, \"message\", \"nonRetryable\"?,"
			+ " \"details\"?}}";

	private static final String HEARTBEAT = "{\"token\", \"details\"?}";

	private final ActivityCompletionClient completion;

	private final WebPayloads payloads;

	private final WebAccess access;

	public ActivityCompletionController(ActivityCompletionClient completion, WebPayloads payloads, WebAccess access) {
		this.completion = completion;
		this.payloads = payloads;
		this.access = access;
	}

	/**
	 * Whether a request changed the attempt.
	 *
	 * @param applied {@code false}: its outcome was already recorded, or it is no longer
	 * awaited
	 */
	record Applied(boolean applied) {
	}

	/**
	 * The failure of a fail request, as an {@link ApplicationFailure}.
	 *
	 * @param type the failure type ({@code null}: "ApplicationFailure"), matched by the
	 * activity's non-retryable error types
	 * @param message the message
	 * @param nonRetryable whether the failure must not be retried
	 * @param details details handed to the workflow with the failure
	 */
	record Failure(@Nullable String type, @Nullable String message, boolean nonRetryable, @Nullable Object details) {
	}

	@PostMapping("/complete")
	Applied complete(HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		TokenAnd request = tokenAnd("result", body, COMPLETE);
		return applied(() -> this.completion.complete(request.token(), request.value()));
	}

	@PostMapping("/fail")
	Applied fail(HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		ObjectNode request = request(body, FAIL, Set.of("token", "failure"));
		WebPayloads.refuseNul(request, "request", "failure.details");
		String token = token(request, FAIL);
		Failure failure = (Failure) this.payloads.convert(request.get("failure"), Failure.class, "failure " + FAIL);
		if (failure == null || failure.message() == null) {
			throw new PayloadException("A fail request needs a \"failure\" with a \"message\": " + FAIL, false, null);
		}
		ApplicationFailure applicationFailure = failure.nonRetryable()
				? ApplicationFailure.newNonRetryableFailure(failure.message(), failure.type(), failure.details())
				: ApplicationFailure.newFailure(failure.message(), failure.type(), failure.details());
		return applied(() -> this.completion.fail(token, applicationFailure));
	}

	@PostMapping("/heartbeat")
	Applied heartbeat(HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		TokenAnd request = tokenAnd("details", body, HEARTBEAT);
		return applied(() -> this.completion.heartbeat(request.token(), request.value()));
	}

	/**
	 * A token and the optional value of a complete or heartbeat request.
	 *
	 * @param token the task token
	 * @param value the result or details, as plain JSON values (maps, lists, strings,
	 * numbers)
	 */
	private record TokenAnd(String token, @Nullable Object value) {
	}

	/**
	 * Reads {@code {"token", "<field>"?}}: the value converted to plain JSON values, for
	 * any payload converter.
	 */
	private TokenAnd tokenAnd(String field, HttpEntity<byte @Nullable []> body, String shape) {
		ObjectNode request = request(body, shape, Set.of("token", field));
		String token = token(request, shape);
		return new TokenAnd(token, this.payloads.convert(request.get(field), Object.class, field));
	}

	/**
	 * The body as a JSON object with no field but those named: a misspelt field is an
	 * error, not ignored.
	 */
	private ObjectNode request(HttpEntity<byte @Nullable []> body, String shape, Set<String> fields) {
		JsonNode request = this.payloads.parse(body);
		if (!(request instanceof ObjectNode object)) {
			throw new PayloadException("The body must be a JSON object: " + shape, false, null);
		}
		for (String field : object.propertyNames()) {
			if (!fields.contains(field)) {
				throw new PayloadException("Unknown field \"" + field + "\"; the body is " + shape, false, null);
			}
		}
		return object;
	}

	private static String token(ObjectNode request, String shape) {
		JsonNode token = request.get("token");
		if (token == null || !token.isString() || token.asString().isBlank()) {
			throw new PayloadException("The body needs a \"token\", the string the attempt got from"
					+ " ActivityContext.taskToken(): " + shape, false, null);
		}
		return token.asString();
	}

	/**
	 * The client refuses a malformed token with an IllegalArgumentException: a 400 with
	 * its own code.
	 */
	private static Applied applied(BooleanSupplier call) {
		try {
			return new Applied(call.getAsBoolean());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidTokenException(ex);
		}
	}

	/** The task token of a request is malformed (not one the engine issued). */
	static final class InvalidTokenException extends RuntimeException {

		InvalidTokenException(IllegalArgumentException cause) {
			super((cause.getMessage() != null) ? cause.getMessage() : "The task token is not one the engine issued",
					cause);
		}

	}

}
