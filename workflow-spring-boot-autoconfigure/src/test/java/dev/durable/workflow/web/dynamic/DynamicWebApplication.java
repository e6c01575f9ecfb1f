package dev.durable.workflow.web.dynamic;

import javax.sql.DataSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import dev.durable.workflow.test.EmbeddedPostgresSupport;

/**
 * A web application whose only workflow is dynamic: every type name started over REST
 * runs it.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class DynamicWebApplication {

	@Bean
	DataSource dataSource() {
		return EmbeddedPostgresSupport.newPooledDataSource();
	}

}
