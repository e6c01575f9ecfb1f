package dev.durable.workflow.web.outage;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * A web application on its own PostgreSQL server ({@code spring.datasource.*}), which a
 * test stops.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class OutageWebApplication {

}
