package dev.durable.workflow.internal.client;

import java.lang.reflect.Method;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.WorkflowMethodReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The method a reference names is read once per reference class, and a lambda is refused
 * every time.
 */
class MethodReferencesTest {

	@Test
	void aMethodReferenceResolvesToItsMethodEachTime() throws Exception {
		Method expected = Greeter.class.getMethod("greet", String.class);
		for (int i = 0; i < 3; i++) {
			WorkflowMethodReference.Func1<Greeter, String, String> reference = Greeter::greet;
			assertThat(MethodReferences.resolve(reference)).isEqualTo(expected);
		}
	}

	@Test
	void twoReferencesToDifferentMethodsStayApart() throws Exception {
		WorkflowMethodReference.Func1<Greeter, String, String> greet = Greeter::greet;
		WorkflowMethodReference.Func1<Greeter, String, String> shout = Greeter::shout;
		assertThat(MethodReferences.resolve(greet)).isEqualTo(Greeter.class.getMethod("greet", String.class));
		assertThat(MethodReferences.resolve(shout)).isEqualTo(Greeter.class.getMethod("shout", String.class));
	}

	@Test
	void aLambdaIsRefusedEveryTime() {
		for (int i = 0; i < 2; i++) {
			WorkflowMethodReference.Func1<Greeter, String, String> lambda = (greeter, name) -> greeter.greet(name);
			assertThatIllegalArgumentException().isThrownBy(() -> MethodReferences.resolve(lambda))
				.withMessageContaining("not a lambda");
		}
	}

	/** A workflow-shaped class whose methods are referenced. */
	public static class Greeter {

		public String greet(String name) {
			return "hello " + name;
		}

		public String shout(String name) {
			return "HELLO " + name;
		}

	}

}
