package dev.durable.workflow.web;

import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.durable.workflow.client.BuildMoveReport;
import dev.durable.workflow.client.BuildRouting;
import dev.durable.workflow.client.BuildStatus;
import dev.durable.workflow.client.WorkflowClient;

/**
 * The generated REST endpoints of worker versioning: the builds of the namespace and
 * their drain status ({@code GET /durable/builds}), the current and ramping builds
 * ({@code PUT /durable/builds/current}, {@code PUT /durable/builds/ramping}), and moves
 * of pinned runs to this node's build ({@code POST /durable/builds/{buildId}/move},
 * {@code POST /durable/workflows/{workflowId}/move-build}). A move replays each run on
 * the code of the node that answers, so it is sent to a node of the target build.
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}")
public class BuildRestController {

	/** The most runs one move request moves. */
	static final int MAX_MOVE = 1000;

	private final WorkflowClient client;

	public BuildRestController(WorkflowClient client) {
		this.client = client;
	}

	/**
	 * The builds of the namespace.
	 *
	 * @param routing where new runs go
	 * @param builds every build, newest first, with its drain status
	 */
	record Builds(BuildRouting routing, List<BuildStatus> builds) {
	}

	@GetMapping("/builds")
	Builds builds() {
		return new Builds(this.client.builds().routing(), this.client.builds().list());
	}

	@PutMapping("/builds/current")
	BuildRouting setCurrent(@RequestParam(required = false) @Nullable String buildId) {
		this.client.builds().setCurrent(blankIsNull(buildId));
		return this.client.builds().routing();
	}

	@PutMapping("/builds/ramping")
	BuildRouting setRamping(@RequestParam(required = false) @Nullable String buildId,
			@RequestParam(defaultValue = "0") int percent) {
		this.client.builds().setRamping(blankIsNull(buildId), percent);
		return this.client.builds().routing();
	}

	@PostMapping("/builds/{buildId}/move")
	BuildMoveReport move(@PathVariable String buildId, @RequestParam String toBuild,
			@RequestParam(required = false) @Nullable String workflowType,
			@RequestParam(defaultValue = "100") int limit) {
		if (limit < 1 || limit > MAX_MOVE) {
			throw new IllegalArgumentException("limit must be between 1 and " + MAX_MOVE + ": " + limit);
		}
		return this.client.builds().moveRuns(buildId, toBuild, blankIsNull(workflowType), limit);
	}

	@PostMapping("/workflows/{workflowId}/move-build")
	BuildMoveReport moveRun(@PathVariable String workflowId, @RequestParam String toBuild,
			@RequestParam(required = false) @Nullable UUID runId) {
		return ((runId != null) ? this.client.handle(workflowId, runId) : this.client.handle(workflowId))
			.moveToBuild(toBuild);
	}

	private static @Nullable String blankIsNull(@Nullable String value) {
		return (value == null || value.isEmpty()) ? null : value;
	}

}
