package dev.durable.workflow.web.streams;

import javax.sql.DataSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

import dev.durable.workflow.test.EmbeddedPostgresSupport;

/**
 * A web application whose workflow publishes an event and a stream, on the shared
 * embedded database.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class StreamsWebApplication {

	@Bean
	DataSource dataSource() {
		return EmbeddedPostgresSupport.newPooledDataSource();
	}

	/** The endpoints open to anyone: the tests look at the streams, not at access. */
	@Bean
	SecurityFilterChain openChain(HttpSecurity http) throws Exception {
		return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

}
