package dev.durable.workflow;

/**
 * Which build runs the workflow tasks of a run when nodes of several builds (deployments
 * of the application with different build ids) share one database. A node without a build
 * id runs unversioned: its runs go to any node, as if no node had a build id.
 */
public enum VersioningBehavior {

	/**
	 * The node's default ({@code durable.workflow.versioning.default-behavior}, else
	 * {@link #AUTO_UPGRADE}); only as the value of {@link Workflow#versioning()}.
	 */
	NODE_DEFAULT,

	/**
	 * A run's workflow tasks run only on nodes of the build that started it, so its code
	 * never changes under it: no {@code Workflows.getVersion} patch is needed. When no
	 * node of its build is live the run waits, visibly, until one comes back or an
	 * operator moves it to another build (after its history replays there).
	 */
	PINNED,

	/**
	 * A run's next workflow task runs on the current build (or the ramping build for the
	 * runs its percentage takes), so it picks up new code at its next task; code changes
	 * must stay replayable ({@code Workflows.getVersion}). What every run did before
	 * builds were versioned.
	 */
	AUTO_UPGRADE

}
