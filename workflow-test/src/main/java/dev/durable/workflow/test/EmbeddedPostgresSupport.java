package dev.durable.workflow.test;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.sql.DataSource;

/**
 * One embedded PostgreSQL server per JVM, for tests: started lazily on a random free port the
 * first time it is asked for, shared by every test in the JVM, and closed by a shutdown hook.
 *
 * <pre>{@code
 * DataSource ds = EmbeddedPostgresSupport.dataSource();
 * String url = EmbeddedPostgresSupport.jdbcUrl(); // user "postgres", no password
 * }</pre>
 */
public final class EmbeddedPostgresSupport {

  /** The superuser and database of the embedded server. */
  public static final String USER = "postgres";

  public static final String DATABASE = "postgres";

  private static volatile EmbeddedPostgres postgres;

  private EmbeddedPostgresSupport() {}

  /** The running server, started on first use. */
  public static EmbeddedPostgres postgres() {
    EmbeddedPostgres pg = postgres;
    if (pg == null) {
      synchronized (EmbeddedPostgresSupport.class) {
        pg = postgres;
        if (pg == null) {
          pg = start();
          postgres = pg;
        }
      }
    }
    return pg;
  }

  /** A data source for the {@value #DATABASE} database as {@value #USER}. */
  public static DataSource dataSource() {
    return postgres().getPostgresDatabase();
  }

  /** The JDBC URL of the {@value #DATABASE} database; user {@value #USER}, no password. */
  public static String jdbcUrl() {
    return postgres().getJdbcUrl(USER, DATABASE);
  }

  /** The port the server listens on. */
  public static int port() {
    return postgres().getPort();
  }

  private static EmbeddedPostgres start() {
    EmbeddedPostgres pg;
    try {
      // port 0 (the default): a free port is chosen at start
      pg = EmbeddedPostgres.builder().setRegisterShutdownHook(false).start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start embedded PostgreSQL", e);
    }
    EmbeddedPostgres started = pg;
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    started.close();
                  } catch (IOException | RuntimeException e) {
                    // the JVM is exiting: nothing left to tell
                  }
                },
                "embedded-postgres-shutdown"));
    return pg;
  }
}
