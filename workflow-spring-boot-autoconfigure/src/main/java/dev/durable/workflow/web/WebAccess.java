package dev.durable.workflow.web;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * What the generated endpoints may do: their base path, whether every mutating endpoint
 * is off ({@code durable.workflow.web.read-only}), and who may call the
 * <em>operations</em>: the endpoints that change existing workflows or schedules (every
 * mutating endpoint but a plain start) and the dashboard's actions.
 * <p>
 * Reads (queries included: they never change a run) and starts are open; the
 * application's security filter chain guards them as it guards any endpoint. The
 * operations are off unless {@code durable.workflow.web.operations-enabled=true} opens
 * them to every caller that reaches them, or {@code durable.workflow.web.required-role}
 * allows them to callers with that role.
 */
public final class WebAccess {

	static final String OPERATIONS_ENABLED = "durable.workflow.web.operations-enabled";

	static final String REQUIRED_ROLE = "durable.workflow.web.required-role";

	private final String basePath;

	private final boolean readOnly;

	private final boolean operationsEnabled;

	private final @Nullable String requiredRole;

	private final CallerRoles callers;

	/**
	 * Access with every operation open to any caller: for controllers set up by hand,
	 * without the auto-configuration's checks.
	 * @param basePath the base path of the endpoints
	 * @param readOnly whether every mutating endpoint is off
	 */
	public WebAccess(String basePath, boolean readOnly) {
		this(basePath, readOnly, true, null, new ServletCallerRoles());
	}

	/**
	 * @param basePath the base path of the endpoints
	 * @param readOnly whether every mutating endpoint is off (starts included)
	 * @param operationsEnabled whether the operations answer to any caller when no role
	 * is required
	 * @param requiredRole the role a caller needs for the operations, or {@code null}
	 * @param callers how a request's caller and roles are read
	 */
	public WebAccess(String basePath, boolean readOnly, boolean operationsEnabled, @Nullable String requiredRole,
			CallerRoles callers) {
		this.basePath = basePath;
		this.readOnly = readOnly;
		this.operationsEnabled = operationsEnabled;
		this.requiredRole = (requiredRole == null || requiredRole.isBlank()) ? null : requiredRole.strip();
		this.callers = callers;
	}

	public String basePath() {
		return this.basePath;
	}

	public boolean isReadOnly() {
		return this.readOnly;
	}

	/** The role the operations need, or {@code null} when none is set. */
	public @Nullable String requiredRole() {
		return this.requiredRole;
	}

	/**
	 * Whether the operations answer to every caller that reaches them (no role checked
	 * here).
	 */
	public boolean operationsOpenToAll() {
		return !this.readOnly && this.requiredRole == null && this.operationsEnabled;
	}

	public void checkWritable() {
		if (this.readOnly) {
			throw new ReadOnlyException();
		}
	}

	/** Whether the caller of a request may run operations (what the dashboard shows). */
	public boolean allowsOperations(HttpServletRequest request) {
		return !this.readOnly && refusal(request) == null;
	}

	/**
	 * Fails unless the caller of a request may run an operation.
	 * @throws ReadOnlyException in read-only mode
	 * @throws OperationRefusedException when the operations are off, or the caller is not
	 * authenticated or lacks the required role
	 */
	public void checkOperation(HttpServletRequest request) {
		checkWritable();
		OperationRefusedException refusal = refusal(request);
		if (refusal != null) {
			throw refusal;
		}
	}

	/** {@link #checkOperation(HttpServletRequest)} for the request this thread serves. */
	public void checkOperation() {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		if (!(attributes instanceof ServletRequestAttributes servlet)) {
			throw new IllegalStateException("No servlet request is being served on this thread");
		}
		checkOperation(servlet.getRequest());
	}

	/**
	 * Why the operations are refused to the caller of a request (read-only mode aside),
	 * or {@code null}.
	 */
	private @Nullable OperationRefusedException refusal(HttpServletRequest request) {
		if (this.requiredRole == null) {
			return this.operationsEnabled ? null
					: new OperationRefusedException(HttpStatus.FORBIDDEN, "OPERATION_DISABLED",
							"This endpoint changes workflows or schedules and is off by default: set "
									+ OPERATIONS_ENABLED + "=true, or " + REQUIRED_ROLE
									+ " to allow it to callers with that role");
		}
		if (!this.callers.isAuthenticated(request)) {
			return new OperationRefusedException(HttpStatus.UNAUTHORIZED, "UNAUTHENTICATED",
					"This endpoint changes workflows or schedules: it needs an authenticated caller with the role "
							+ REQUIRED_ROLE + " names");
		}
		if (!this.callers.hasRole(request, this.requiredRole)) {
			return new OperationRefusedException(HttpStatus.FORBIDDEN, "ROLE_REQUIRED",
					"This endpoint changes workflows or schedules: it needs the role " + REQUIRED_ROLE + " names");
		}
		return null;
	}

	/** A mutating endpoint was called while the API is read-only. */
	public static final class ReadOnlyException extends RuntimeException {

		ReadOnlyException() {
			super("The workflow API is read-only here (durable.workflow.web.read-only=true)");
		}

	}

	/**
	 * An operation was refused: off, or the caller is not authenticated or lacks the
	 * role.
	 */
	public static final class OperationRefusedException extends RuntimeException {

		private final HttpStatus status;

		private final String code;

		OperationRefusedException(HttpStatus status, String code, String message) {
			super(message);
			this.status = status;
			this.code = code;
		}

		/** 401 (not authenticated) or 403. */
		public HttpStatus status() {
			return this.status;
		}

		/** The problem's stable code. */
		public String code() {
			return this.code;
		}

	}

}
