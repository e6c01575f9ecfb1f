package dev.durable.workflow.web;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Who calls an endpoint: whether the caller of a request is authenticated and has a role.
 * With Spring Security on the classpath the auto-configuration reads its security context
 * ({@link SpringSecurityCallerRoles}); without it, the servlet container's
 * ({@link ServletCallerRoles}).
 */
public interface CallerRoles {

	/** Whether the request has an authenticated caller (an anonymous one is not). */
	boolean isAuthenticated(HttpServletRequest request);

	/**
	 * Whether the caller has the role.
	 * @param role a role name as {@code durable.workflow.web.required-role} gives it
	 */
	boolean hasRole(HttpServletRequest request, String role);

}
