package dev.durable.cli.app;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * The application the tool is tested against: the starter with one workflow, on the
 * embedded PostgreSQL the starter starts when no data source is configured (stopped after
 * the context closes, so the JVM's exit does not pull the database from under the
 * engine).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class CliTestApplication {

}
