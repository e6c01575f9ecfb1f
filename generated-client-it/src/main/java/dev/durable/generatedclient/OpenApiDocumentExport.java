package dev.durable.generatedclient;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * Writes the OpenAPI document of the running application to a file, as a build step:
 * starts {@link TicketsApplication} on a free port with a scratch database, reads
 * {@code /v3/api-docs} and stops. The client is generated from what the application
 * serves, not from a copy kept by hand.
 */
public final class OpenApiDocumentExport {

	private OpenApiDocumentExport() {
	}

	public static void main(String[] args) throws Exception {
		Path target = Path.of(args[0]);
		Files.createDirectories(target.toAbsolutePath().getParent());
		try (ConfigurableApplicationContext context = TicketsServer.builder(scratch(target)).run()) {
			int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
			HttpResponse<Path> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v3/api-docs")).build(),
						HttpResponse.BodyHandlers.ofFile(target));
			if (response.statusCode() != 200) {
				throw new IllegalStateException("/v3/api-docs answered " + response.statusCode());
			}
		}
		System.out.println("OpenAPI document written to " + target);
	}

	private static Path scratch(Path target) throws Exception {
		return Files.createTempDirectory(target.toAbsolutePath().getParent(), "pgdata");
	}

}
