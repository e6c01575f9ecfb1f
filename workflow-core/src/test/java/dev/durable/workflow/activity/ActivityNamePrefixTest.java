package dev.durable.workflow.activity;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two activity types with methods of the same name, told apart by
 * {@code @Activity(namePrefix)}.
 */
class ActivityNamePrefixTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public interface Hello {

		String greet(String name);

	}

	@Activity(namePrefix = "Bye")
	public interface Bye {

		String greet(String name);

		@ActivityMethod(name = "farewell")
		String wave(String name);

	}

	@Activity
	public interface AlsoHello {

		String greet(String name);

	}

	@Workflow("greet-both")
	public static class GreetBothWorkflow {

		private final Hello hello;

		private final Bye bye;

		public GreetBothWorkflow(Hello hello, Bye bye) {
			this.hello = hello;
			this.bye = bye;
		}

		@WorkflowRun
		public String run(String name) {
			return this.hello.greet(name) + ", " + this.bye.greet(name) + ", " + this.bye.wave(name);
		}

	}

	@Test
	void methodsOfTheSameNameAreTwoActivityTypes() {
		Hello hello = (name) -> "hello " + name;
		Bye bye = new Bye() {

			@Override
			public String greet(String name) {
				return "bye " + name;
			}

			@Override
			public String wave(String name) {
				return "waves at " + name;
			}

		};
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(GreetBothWorkflow.class).registerActivities(hello, bye));
		WorkflowHandle<String> handle = engine.client()
			.start(GreetBothWorkflow::run, "Ada", StartOptions.withId("prefix-1"));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("hello Ada, bye Ada, waves at Ada");
		assertThat(handle.history()).filteredOn((event) -> event.type().equals("ACTIVITY_SCHEDULED"))
			.extracting((HistoryEvent event) -> event.attributes().get("name"))
			.containsExactly("greet", "Byegreet", "farewell");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void withoutAPrefixTwoTypesOfTheSameMethodNameAreRefused() {
		Hello hello = (name) -> "hello " + name;
		AlsoHello other = (name) -> "hi " + name;
		assertThatThrownBy(() -> this.engines.builder().registerActivities(hello, other).build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("namePrefix");
	}

}
