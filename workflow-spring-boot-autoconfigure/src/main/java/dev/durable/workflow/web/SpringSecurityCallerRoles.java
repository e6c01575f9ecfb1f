package dev.durable.workflow.web;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The caller as Spring Security's context holds it. A role is matched as {@code hasRole}
 * matches it: {@code DURABLE_OPERATOR} is the authority {@code ROLE_DURABLE_OPERATOR} (a
 * role already written with the {@code ROLE_} prefix is taken as it is). Used only when
 * Spring Security is on the classpath.
 */
public final class SpringSecurityCallerRoles implements CallerRoles {

	private static final String PREFIX = "ROLE_";

	private final AuthenticationTrustResolver trust = new AuthenticationTrustResolverImpl();

	@Override
	public boolean isAuthenticated(HttpServletRequest request) {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		return authentication != null && authentication.isAuthenticated() && !this.trust.isAnonymous(authentication);
	}

	@Override
	public boolean hasRole(HttpServletRequest request, String role) {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (authentication == null) {
			return false;
		}
		String authority = role.startsWith(PREFIX) ? role : PREFIX + role;
		return authentication.getAuthorities().stream().map(GrantedAuthority::getAuthority).anyMatch(authority::equals);
	}

}
