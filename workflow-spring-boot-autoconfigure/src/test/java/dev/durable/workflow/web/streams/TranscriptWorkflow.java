package dev.durable.workflow.web.streams;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.WorkflowStream;
import dev.durable.workflow.Workflows;

/**
 * Streams the words of a text, the second half once told to go on, and sets its status as
 * an event.
 */
@Workflow(value = "transcript", receives = "more")
public class TranscriptWorkflow {

	/** One word of the transcript. */
	public record Word(int index, String text) {
	}

	@WorkflowRun
	public String run(String text) {
		String[] words = text.split(" ");
		WorkflowStream transcript = Workflows.stream("words");
		int half = words.length / 2;
		for (int i = 0; i < half; i++) {
			transcript.write(new Word(i, words[i]));
		}
		Workflows.setEvent("status", "halfway");
		Workflows.receive("more", String.class);
		for (int i = half; i < words.length; i++) {
			transcript.write(new Word(i, words[i]));
		}
		transcript.close();
		Workflows.setEvent("status", "done");
		return text;
	}

}
