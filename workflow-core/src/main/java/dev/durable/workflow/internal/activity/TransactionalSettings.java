package dev.durable.workflow.internal.activity;

import java.lang.reflect.Method;
import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;

import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.activity.TransactionIsolation;

/**
 * How transactional activities run on a node: the transaction manager that binds
 * connections of the engine's data source (the application's, under Spring, so that its
 * JPA or JDBC code joins the transaction; else one of the engine's own), and the defaults
 * of the isolation level and of the runs again after a serialization failure.
 *
 * @param dataSource the engine's data source (the transaction must bind its connections)
 * @param manager the transaction manager
 * @param isolation the default isolation level (never
 * {@link TransactionIsolation#DEFAULT})
 * @param serializationRetries the default number of runs again after a serialization
 * failure
 */
public record TransactionalSettings(DataSource dataSource, PlatformTransactionManager manager,
		TransactionIsolation isolation, int serializationRetries) {

	public TransactionalSettings {
		if (isolation == TransactionIsolation.DEFAULT) {
			isolation = TransactionIsolation.READ_COMMITTED;
		}
		if (serializationRetries < 0) {
			throw new IllegalArgumentException("serializationRetries must not be negative: " + serializationRetries);
		}
	}

	/** The default runs again after a serialization failure. */
	public static final int DEFAULT_SERIALIZATION_RETRIES = 10;

	/**
	 * @param manager the application's transaction manager, or {@code null} for one of
	 * the engine's own
	 */
	public static TransactionalSettings of(DataSource dataSource, @Nullable PlatformTransactionManager manager,
			TransactionIsolation isolation, int serializationRetries) {
		return new TransactionalSettings(dataSource,
				(manager != null) ? manager : new DataSourceTransactionManager(dataSource), isolation,
				serializationRetries);
	}

	/**
	 * How one activity method's attempts run in a transaction.
	 *
	 * @param isolation the JDBC isolation level, as {@link TransactionDefinition} numbers
	 * it
	 * @param serializationRetries runs again after a serialization failure
	 */
	public record Spec(int isolation, int serializationRetries) {
	}

	/**
	 * The transaction of an activity method, or {@code null} when it is not
	 * transactional.
	 */
	public @Nullable Spec spec(Method method) {
		ActivityMethod annotation = method.getAnnotation(ActivityMethod.class);
		if (annotation == null || !annotation.transactional()) {
			return null;
		}
		TransactionIsolation level = (annotation.isolation() != TransactionIsolation.DEFAULT) ? annotation.isolation()
				: this.isolation;
		int isolationLevel = switch (level) {
			case SERIALIZABLE -> TransactionDefinition.ISOLATION_SERIALIZABLE;
			case REPEATABLE_READ -> TransactionDefinition.ISOLATION_REPEATABLE_READ;
			default -> TransactionDefinition.ISOLATION_READ_COMMITTED;
		};
		return new Spec(isolationLevel, (annotation.serializationRetries() >= 0) ? annotation.serializationRetries()
				: this.serializationRetries);
	}

}
