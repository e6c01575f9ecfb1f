package dev.durable.workflow.web;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The caller as the servlet container knows it: its user principal and
 * {@code isUserInRole}.
 */
public final class ServletCallerRoles implements CallerRoles {

	@Override
	public boolean isAuthenticated(HttpServletRequest request) {
		return request.getUserPrincipal() != null;
	}

	@Override
	public boolean hasRole(HttpServletRequest request, String role) {
		return request.isUserInRole(role);
	}

}
