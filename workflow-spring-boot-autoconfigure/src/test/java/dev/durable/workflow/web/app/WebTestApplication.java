package dev.durable.workflow.web.app;

import javax.sql.DataSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import dev.durable.workflow.test.EmbeddedPostgresSupport;

/**
 * A web application with one workflow and one activity, on the shared embedded database.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(Pricing.class)
public class WebTestApplication {

	@Bean
	DataSource dataSource() {
		return EmbeddedPostgresSupport.newPooledDataSource();
	}

}
