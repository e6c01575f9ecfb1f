package dev.durable.workflow.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.UpdateValidator;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowUpdateRejectedException;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class MessagesSmokeTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Workflow(value = "chat", receives = { "line" })
	public static class Chat {

		private final List<String> lines = new ArrayList<>();

		private boolean done;

		@WorkflowRun
		public List<String> run() {
			String first = Workflows.receive("line", String.class);
			this.lines.add("received " + first);
			Workflows.await(() -> this.done);
			return this.lines;
		}

		@SignalMethod
		public void say(String line) {
			this.lines.add(line);
		}

		@SignalMethod
		public void finish() {
			this.done = true;
		}

		@QueryMethod
		public List<String> lines() {
			return this.lines;
		}

		@UpdateMethod
		public int append(String line) {
			this.lines.add(line);
			return this.lines.size();
		}

		@UpdateValidator(update = "append")
		public void validateAppend(String line) {
			if (line.isBlank()) {
				throw new IllegalArgumentException("blank line");
			}
		}

	}

	@Test
	void signalsQueriesAndUpdates() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(Chat.class));
		WorkflowHandle<List<String>> handle = engine.client().start(Chat::run, StartOptions.withId("chat"));
		handle.signal(Chat::say, "hello");
		handle.signal("line", "buffered");
		await().until(() -> handle.query(Chat::lines).size() == 2);
		assertThat(handle.query(Chat::lines)).containsExactly("hello", "received buffered");
		assertThat(handle.update(Chat::append, "updated")).isEqualTo(3);
		int events = handle.history().size();
		assertThatThrownBy(() -> handle.update(Chat::append, " ")).isInstanceOf(WorkflowUpdateRejectedException.class)
			.hasMessageContaining("blank line");
		assertThat(handle.history()).hasSize(events);
		handle.signal(Chat::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("hello", "received buffered", "updated");
		assertThat(handle.query(Chat::lines)).containsExactly("hello", "received buffered", "updated");
		Engines.assertReplays(engine, handle.runId());
	}

}
