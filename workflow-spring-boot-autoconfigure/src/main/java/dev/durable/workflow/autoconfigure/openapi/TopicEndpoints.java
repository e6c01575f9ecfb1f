package dev.durable.workflow.autoconfigure.openapi;

import java.util.ArrayList;
import java.util.List;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.Schema;

/**
 * The description of the event-topic endpoints ({@code /topics}): their summaries, body
 * and statuses; springdoc infers their parameters and answers.
 */
final class TopicEndpoints {

	static final String TOPICS = "topics";

	private final Schemas schemas;

	private final Schema<?> problem;

	TopicEndpoints(Schemas schemas, Schema<?> problem) {
		this.schemas = schemas;
		this.problem = problem;
	}

	/**
	 * Describes a topic operation springdoc inferred, by its method and path below the
	 * base path.
	 * @return whether it is one of them
	 */
	boolean describe(String method, String path, Operation operation) {
		OperationDoc doc = new OperationDoc(operation, this.schemas, this.problem);
		Schema<?> inferred = GenericEndpoints.inferred(operation);
		List<Problem> problems = new ArrayList<>();
		switch (method + " " + path) {
			case "GET /topics" -> doc.describe(TOPICS, "listTopics", "The event topics",
					"The namespace's topics (at most 1,000, by name): the position of the last dispatched "
							+ "event of each, the waits for its events under way and its events not dispatched "
							+ "yet.")
				.noBody()
				.answers(200, "The topics", inferred);
			case "POST /topics/{topic}/events" -> {
				doc.describe(TOPICS, "publishEvent", "Publish an event on a topic",
						"Every run waiting for a matching event on the topic (Workflows.awaitEvent) receives it, "
								+ "each once. With eventId, a repeat of the same id stores nothing and answers "
								+ "stored: false, so a publisher may retry.")
					.body(this.schemas.any("The event's payload (JSON); the waits match its fields"), true,
							"The payload")
					.answers(200, "The event's id, and whether this call stored it", inferred);
				problems.addAll(List.of(Problem.INVALID_PAYLOAD, Problem.TOO_LARGE, Problem.NOT_JSON));
				problems.addAll(Problem.OPERATION);
			}
			default -> {
				return false;
			}
		}
		problems.add(Problem.UNAVAILABLE);
		doc.problems(problems);
		return true;
	}

}
