package dev.durable.workflow.autoconfigure.openapi;

import java.util.ArrayList;
import java.util.List;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.Schema;

/**
 * The description of the worker-versioning endpoints ({@code /builds} and a run's
 * {@code /move-build}): their summaries and statuses; springdoc infers their parameters
 * and answers.
 */
final class BuildEndpoints {

	static final String BUILDS = "builds";

	static final Problem NOT_THIS_BUILD = new Problem(400,
			"INVALID_PAYLOAD: toBuild is not the build of the node that answers (runs move to a build through one "
					+ "of its nodes, whose code their histories replay on), or a parameter is not valid");

	private final Schemas schemas;

	private final Schema<?> problem;

	BuildEndpoints(Schemas schemas, Schema<?> problem) {
		this.schemas = schemas;
		this.problem = problem;
	}

	/**
	 * Describes a versioning operation springdoc inferred, by its method and path below
	 * the base path.
	 * @return whether it is one of them
	 */
	boolean describe(String method, String path, Operation operation) {
		OperationDoc doc = new OperationDoc(operation, this.schemas, this.problem);
		Schema<?> inferred = GenericEndpoints.inferred(operation);
		List<Problem> problems = new ArrayList<>();
		switch (method + " " + path) {
			case "GET /builds" -> doc
				.describe(BUILDS, "listBuilds", "The builds and where new runs go",
						"Every build a node of the namespace ran or an open run is pinned to, newest first, with its "
								+ "drain status: an old build is DRAINED when no open run is pinned to it, and its "
								+ "nodes can then stop without stranding a run.")
				.answers(200, "The current and ramping builds, and each build's status", inferred);
			case "PUT /builds/current" -> {
				doc.describe(BUILDS, "setCurrentBuild", "Choose the current build",
						"New runs (but the ramping ones) and the next tasks of auto-upgrading runs go to it; without "
								+ "buildId, to the newest build with a live node. Every node follows within a poll "
								+ "interval.")
					.noBody()
					.answers(200, "Where new runs go now", inferred);
				problems.add(Problem.INVALID_PAYLOAD);
				problems.addAll(Problem.OPERATION);
			}
			case "PUT /builds/ramping" -> {
				doc.describe(BUILDS, "setRampingBuild", "Ramp a build to a percentage of new runs",
						"The runs are chosen by workflow id, the same ones every time; without buildId, ramping "
								+ "stops.")
					.noBody()
					.answers(200, "Where new runs go now", inferred);
				problems.add(Problem.INVALID_PAYLOAD);
				problems.addAll(Problem.OPERATION);
			}
			case "POST /builds/{buildId}/move" -> {
				doc.describe(BUILDS, "moveRunsToBuild", "Move the runs pinned to a build to this node's build",
						"Each run's history replays on the code of the node that answers first; a run that does not "
								+ "replay stays where it is and the report names its first mismatch. Moves up to "
								+ "limit runs (at most 1000): repeat until the report is empty.")
					.noBody()
					.answers(200, "The runs moved and the runs refused", inferred);
				problems.add(NOT_THIS_BUILD);
				problems.addAll(Problem.OPERATION);
			}
			case "POST /workflows/{workflowId}/move-build" -> {
				doc.describe(BUILDS, "moveRunToBuild", "Move a pinned run to this node's build",
						"Its history replays on the code of the node that answers first; a run that does not replay "
								+ "stays, and describe shows why.")
					.noBody()
					.answers(200, "Whether the run moved, or why not", inferred);
				problems.addAll(
						List.of(NOT_THIS_BUILD, Problem.WORKFLOW_NOT_FOUND, Problem.WORKFLOW_CLOSED, Problem.CONFLICT));
				problems.addAll(Problem.OPERATION);
			}
			default -> {
				return false;
			}
		}
		if (method.equals("GET")) {
			doc.noBody();
		}
		problems.add(Problem.UNAVAILABLE);
		doc.problems(problems);
		return true;
	}

}
