package dev.durable.workflow.web;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard shows signal, cancel and terminate only to a caller {@link WebAccess}
 * allows operations, decided per request: off by default, on with
 * {@code operations-enabled}, never in read-only mode, and with a required role only for
 * callers with it (from Spring Security's context, or from the servlet container without
 * Spring Security).
 */
class DashboardActionsPermissionTest {

	@AfterEach
	void clear() {
		SecurityContextHolder.clearContext();
	}

	private static String page(WebAccess access, MockHttpServletRequest request) {
		return new DashboardController(access).dashboard(request).getBody();
	}

	private static boolean actions(WebAccess access, MockHttpServletRequest request) {
		String page = page(access, request);
		assertThat(page).containsAnyOf("\"actions\":true", "\"actions\":false");
		return page.contains("\"actions\":true");
	}

	@Test
	void offByDefaultOnWithThePropertyNeverWhenReadOnly() {
		MockHttpServletRequest anyone = new MockHttpServletRequest();
		assertThat(actions(new WebAccess("/durable", false, false, null, new ServletCallerRoles()), anyone)).isFalse();
		assertThat(actions(new WebAccess("/durable", false, true, null, new ServletCallerRoles()), anyone)).isTrue();
		assertThat(actions(new WebAccess("/durable", true, true, null, new ServletCallerRoles()), anyone)).isFalse();
	}

	@Test
	void withARequiredRoleFromSpringSecurityOnlyItsHoldersSeeTheActions() {
		WebAccess access = new WebAccess("/durable", false, false, "DURABLE_OPERATOR", new SpringSecurityCallerRoles());
		MockHttpServletRequest request = new MockHttpServletRequest();
		assertThat(actions(access, request)).isFalse();
		SecurityContextHolder.getContext()
			.setAuthentication(new AnonymousAuthenticationToken("key", "anonymous",
					AuthorityUtils.createAuthorityList("ROLE_DURABLE_OPERATOR")));
		assertThat(actions(access, request)).as("an anonymous caller is never an operator").isFalse();
		SecurityContextHolder.getContext().setAuthentication(authenticated("ROLE_VIEWER"));
		assertThat(actions(access, request)).isFalse();
		SecurityContextHolder.getContext().setAuthentication(authenticated("DURABLE_OPERATOR"));
		assertThat(actions(access, request)).as("hasRole matches the ROLE_ authority, not the bare name").isFalse();
		SecurityContextHolder.getContext().setAuthentication(authenticated("ROLE_DURABLE_OPERATOR"));
		assertThat(actions(access, request)).isTrue();
		// a role written with its prefix is the same role
		assertThat(actions(
				new WebAccess("/durable", false, false, "ROLE_DURABLE_OPERATOR", new SpringSecurityCallerRoles()),
				request))
			.isTrue();
	}

	@Test
	void withoutSpringSecurityTheServletContainersRolesCount() {
		WebAccess access = new WebAccess("/durable", false, false, "operator", new ServletCallerRoles());
		MockHttpServletRequest request = new MockHttpServletRequest();
		assertThat(actions(access, request)).isFalse();
		request.setUserPrincipal(() -> "ann");
		assertThat(actions(access, request)).isFalse();
		request.addUserRole("operator");
		assertThat(actions(access, request)).isTrue();
	}

	@Test
	void thePageIsNeverKeptByASharedCache() {
		var response = new DashboardController(new WebAccess("/durable", false, false, null, new ServletCallerRoles()))
			.dashboard(new MockHttpServletRequest());
		assertThat(response.getHeaders().getCacheControl()).contains("private").contains("no-cache");
	}

	private static TestingAuthenticationToken authenticated(String... authorities) {
		TestingAuthenticationToken token = new TestingAuthenticationToken("ann", "pw",
				List.of(authorities)
					.stream()
					.map(org.springframework.security.core.authority.SimpleGrantedAuthority::new)
					.toList());
		return token;
	}

}
