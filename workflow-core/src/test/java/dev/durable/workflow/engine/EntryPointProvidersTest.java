package dev.durable.workflow.engine;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.Promise;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.internal.support.Providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The static entry points that reach the engine through interfaces it implements (found
 * with ServiceLoader, so that the API names no engine class): both implementations are on
 * the class path, and each answers as the entry point promises outside its context.
 */
class EntryPointProvidersTest {

	@Test
	void theEngineImplementsBothProviders() {
		assertThat(Providers.of(ActivityContext.Provider.class)).isNotNull();
		assertThat(Providers.of(Promise.Combinators.class)).isNotNull();
		// found once, then the same instance
		assertThat(Providers.of(Promise.Combinators.class)).isSameAs(Providers.of(Promise.Combinators.class));
	}

	@Test
	void outsideAnActivityThereIsNoActivityContext() {
		assertThatThrownBy(ActivityContext::current).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("only valid inside an activity execution");
	}

	@Test
	void anInterfaceNobodyImplementsIsAClearError() {
		assertThatThrownBy(() -> Providers.of(Runnable.class)).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("No implementation of java.lang.Runnable");
	}

}
