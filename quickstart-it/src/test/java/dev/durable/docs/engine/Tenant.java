package dev.durable.docs.engine;

/**
 * The application's tenant context that the guide's interceptor carries to activities.
 */
public final class Tenant {

	private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

	private Tenant() {
	}

	public static String current() {
		return CURRENT.get();
	}

	/** Makes the tenant current until the scope closes. */
	public static Scope open(String tenant) {
		String previous = CURRENT.get();
		CURRENT.set(tenant);
		return () -> CURRENT.set(previous);
	}

	/** A tenant made current. */
	public interface Scope extends AutoCloseable {

		@Override
		void close();

	}

}
