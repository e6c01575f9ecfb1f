package dev.durable.workflow.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * A direct connection to PostgreSQL for when the application's DataSource goes through a
 * transaction-mode pooler such as PgBouncer: the engine keeps its one LISTEN connection
 * and its heartbeat's connection on it and runs the schema migration over it (each needs
 * a session of its own); everything else stays on the application's DataSource. Unset
 * (the default), the application's DataSource serves them (the LISTEN and heartbeat
 * connections are then held out of its pool for as long as the engine runs). Setting the
 * URL also makes the engine check at start that the pooled DataSource keeps the driver's
 * prepared statements working (see the README, section PgBouncer).
 * <p>
 * Bound to {@code durable.workflow.direct.*}, as a part of
 * {@link DurableWorkflowProperties}.
 */
public class DurableWorkflowDirectProperties {

	/**
	 * JDBC URL straight to PostgreSQL (not through the pooler), e.g.
	 * jdbc:postgresql://db-primary:5432/app.
	 */
	private @Nullable String url;

	/**
	 * User of the direct connection; unset: the URL's own (or the driver's default).
	 */
	private @Nullable String username;

	/**
	 * Password of the direct connection.
	 */
	private @Nullable String password;

	public @Nullable String getUrl() {
		return this.url;
	}

	public void setUrl(@Nullable String url) {
		this.url = url;
	}

	public @Nullable String getUsername() {
		return this.username;
	}

	public void setUsername(@Nullable String username) {
		this.username = username;
	}

	public @Nullable String getPassword() {
		return this.password;
	}

	public void setPassword(@Nullable String password) {
		this.password = password;
	}

}
