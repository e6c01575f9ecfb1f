package dev.durable.workflow.web;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import jakarta.servlet.Filter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import dev.durable.workflow.web.app.WebTestApplication;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The generated endpoints are ordinary MVC endpoints: the application's security filter
 * chain applies to them; and {@code durable.workflow.web.read-only} turns off every
 * mutating one.
 */
@SpringBootTest(classes = { WebTestApplication.class, SecuredReadOnlyApiTest.Security.class },
		properties = { "durable.workflow.schema=web_secured", "durable.workflow.web.read-only=true",
				"durable.workflow.embedded-postgres.enabled=false" })
class SecuredReadOnlyApiTest {

	@Autowired
	private WebApplicationContext context;

	private MockMvc mvc;

	/** Basic authentication for everything, one user. */
	@Configuration(proxyBeanMethods = false)
	static class Security {

		@Bean
		SecurityFilterChain apiSecurity(HttpSecurity http) throws Exception {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.disable())
				.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("ops").password("{noop}secret").roles("OPS").build());
		}

	}

	@BeforeEach
	void mvc() {
		this.mvc = MockMvcBuilders.webAppContextSetup(this.context)
			.addFilters(this.context.getBean("springSecurityFilterChain", Filter.class))
			.build();
	}

	private static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void withoutCredentialsTheApiAnswers401() throws Exception {
		this.mvc.perform(get("/durable/workflow-types")).andExpect(status().isUnauthorized());
		this.mvc.perform(get("/durable/ui")).andExpect(status().isUnauthorized());
		this.mvc.perform(get("/durable/workflow-types").header("Authorization", basic("ops", "wrong")))
			.andExpect(status().isUnauthorized());
	}

	@Test
	void withCredentialsReadsWorkAndWritesAreOffInReadOnlyMode() throws Exception {
		this.mvc.perform(get("/durable/workflow-types").header("Authorization", basic("ops", "secret")))
			.andExpect(status().isOk());
		this.mvc
			.perform(post("/durable/workflows").header("Authorization", basic("ops", "secret"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"type\":\"order\",\"workflowId\":\"ro-1\",\"input\":{\"item\":\"x\",\"quantity\":1}}"))
			.andExpect(status().isForbidden())
			.andExpect(jsonPath("$.code").value("READ_ONLY"));
		this.mvc
			.perform(post("/durable/activities/complete").header("Authorization", basic("ops", "secret"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"token\":\"t\",\"result\":1}"))
			.andExpect(status().isForbidden())
			.andExpect(jsonPath("$.code").value("READ_ONLY"));
		this.mvc.perform(get("/durable/ui").header("Authorization", basic("ops", "secret")))
			.andExpect(status().isOk())
			.andExpect(org.springframework.test.web.servlet.result.MockMvcResultMatchers.content()
				.string(org.hamcrest.Matchers.containsString("\"readOnly\":true,\"actions\":false")));
		this.mvc.perform(get("/durable/workflows/ro-1").header("Authorization", basic("ops", "secret")))
			.andExpect(status().isNotFound())
			.andExpect(jsonPath("$.code").value("WORKFLOW_NOT_FOUND"));
	}

}
