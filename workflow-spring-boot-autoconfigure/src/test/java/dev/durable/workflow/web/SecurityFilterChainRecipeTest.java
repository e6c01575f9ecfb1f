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
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import dev.durable.workflow.web.app.WebTestApplication;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The recipe of docs/rest-api.md ("Who may call what"), as written: a filter chain that
 * signs in every caller of {@code /durable/**}, and
 * {@code required-role=DURABLE_OPERATOR}. Any signed-in user reads and starts; only
 * operators signal and cancel.
 */
@SpringBootTest(classes = { WebTestApplication.class, SecurityFilterChainRecipeTest.SecurityConfig.class },
		properties = { "durable.workflow.schema=web_recipe", "durable.workflow.embedded-postgres.enabled=false",
				"durable.workflow.worker.poll-interval=100ms", "durable.workflow.web.required-role=DURABLE_OPERATOR" })
class SecurityFilterChainRecipeTest {

	/** The guide's snippet, with the users a real application would have elsewhere. */
	@Configuration
	static class SecurityConfig {

		@Bean
		SecurityFilterChain durableSecurity(HttpSecurity http) throws Exception {
			return http.securityMatcher("/durable/**")
				.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.ignoringRequestMatchers("/durable/**"))
				.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("ann").password("{noop}secret").roles("USER").build(),
					User.withUsername("olga").password("{noop}secret").roles("DURABLE_OPERATOR").build());
		}

	}

	@Autowired
	private WebApplicationContext context;

	private MockMvc mvc;

	@BeforeEach
	void mvc() {
		this.mvc = MockMvcBuilders.webAppContextSetup(this.context)
			.addFilters(this.context.getBean("springSecurityFilterChain", Filter.class))
			.build();
	}

	private static MockHttpServletRequestBuilder as(String user, MockHttpServletRequestBuilder request) {
		return request.header("Authorization",
				"Basic " + Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8)));
	}

	@Test
	void signedInUsersReadAndStartAndOperatorsOperate() throws Exception {
		this.mvc.perform(get("/durable/workflow-types")).andExpect(status().isUnauthorized());
		this.mvc.perform(as("ann", post("/durable/workflows")).contentType(MediaType.APPLICATION_JSON)
			.content("{\"type\":\"order\",\"workflowId\":\"recipe-1\",\"input\":{\"item\":\"tea\",\"quantity\":2}}"))
			.andExpect(status().isCreated());
		this.mvc.perform(as("ann", get("/durable/workflows/recipe-1"))).andExpect(status().isOk());
		this.mvc.perform(as("ann", post("/durable/workflows/recipe-1/cancel")))
			.andExpect(status().isForbidden())
			.andExpect(jsonPath("$.code").value("ROLE_REQUIRED"));
		this.mvc.perform(as("olga", post("/durable/workflows/recipe-1/cancel"))).andExpect(status().isAccepted());
	}

}
