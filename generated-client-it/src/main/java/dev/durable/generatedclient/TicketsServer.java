package dev.durable.generatedclient;

import java.nio.file.Path;

import org.springframework.boot.builder.SpringApplicationBuilder;

/** How the document export and the test start the application. */
public final class TicketsServer {

	private TicketsServer() {
	}

	/** The application on a free port, its embedded database in the given directory. */
	public static SpringApplicationBuilder builder(Path dataDirectory) {
		return new SpringApplicationBuilder(TicketsApplication.class).properties("server.port=0",
				"durable.workflow.embedded-postgres.port=0",
				"durable.workflow.embedded-postgres.data-directory=" + dataDirectory);
	}

}
