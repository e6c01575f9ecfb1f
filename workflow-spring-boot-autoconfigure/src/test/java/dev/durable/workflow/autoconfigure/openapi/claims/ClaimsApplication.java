package dev.durable.workflow.autoconfigure.openapi.claims;

import javax.sql.DataSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import dev.durable.workflow.test.EmbeddedPostgresSupport;

/** A web application with springdoc and one workflow, on the shared embedded database. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ClaimsApplication {

	@Bean
	DataSource dataSource() {
		return EmbeddedPostgresSupport.newPooledDataSource();
	}

}
