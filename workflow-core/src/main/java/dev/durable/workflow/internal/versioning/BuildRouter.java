package dev.durable.workflow.internal.versioning;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.VersioningBehavior;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.store.BuildRepository;
import dev.durable.workflow.internal.store.BuildRepository.StoredRouting;
import dev.durable.workflow.internal.store.BuildRoute;
import dev.durable.workflow.internal.store.BuildAssignment;
import dev.durable.workflow.internal.store.RunRow;

/**
 * This node's view of the namespace's builds: which build a new run belongs to, whether a
 * run goes to this node, and what a task commit records. The stored routing is read at
 * most once per poll interval (and again after this node changed it), so an operator's
 * change reaches every node within a poll interval.
 */
public final class BuildRouter {

	private final String namespace;

	private final @Nullable String buildId;

	private final VersioningBehavior defaultBehavior;

	private final WorkflowRegistry workflows;

	private final BuildRepository builds;

	private final long maxAgeNanos;

	private final long deadAfterMillis;

	private final AtomicReference<@Nullable Snapshot> snapshot = new AtomicReference<>();

	private volatile @Nullable Instant lastTaskAt;

	private volatile @Nullable Instant recordedTaskAt;

	private volatile @Nullable String commitSet;

	private record Snapshot(StoredRouting stored, long readAt) {
	}

	/** In poll intervals: how old a routing a start uses may be. */
	private static final int STARTS_STALE_AFTER = 3;

	/**
	 * @param buildId this node's build, or {@code null} (an unversioned node)
	 * @param maxAge how long a read of the stored routing serves
	 * @param deadAfter how long after its last heartbeat a node counts as gone
	 */
	public BuildRouter(String namespace, @Nullable String buildId, VersioningBehavior defaultBehavior,
			WorkflowRegistry workflows, BuildRepository builds, Duration maxAge, Duration deadAfter) {
		this.namespace = namespace;
		this.buildId = buildId;
		this.defaultBehavior = defaultBehavior;
		this.workflows = workflows;
		this.builds = builds;
		this.maxAgeNanos = maxAge.toNanos();
		this.deadAfterMillis = deadAfter.toMillis();
	}

	/** The router of a node without a build id, which routes nothing by build. */
	public static BuildRouter unversioned(String namespace, BuildRepository builds) {
		return new BuildRouter(namespace, null, VersioningBehavior.AUTO_UPGRADE, new WorkflowRegistry(List.of()),
				builds, Duration.ofSeconds(1), Duration.ofSeconds(30));
	}

	/** This node's build, or {@code null}. */
	public @Nullable String buildId() {
		return this.buildId;
	}

	public String namespace() {
		return this.namespace;
	}

	/**
	 * The stored routing, read at most once per poll interval (the node's poll reads it
	 * each round).
	 */
	public StoredRouting routing() {
		return routing(this.maxAgeNanos);
	}

	private StoredRouting routing(long maxAge) {
		Snapshot current = this.snapshot.get();
		long now = System.nanoTime();
		if (current == null || now - current.readAt() > maxAge) {
			current = new Snapshot(this.builds.routing(this.namespace, this.deadAfterMillis), now);
			this.snapshot.set(current);
		}
		return current.stored();
	}

	/** Forgets the stored routing read last (this node changed it). */
	public void changed() {
		this.snapshot.set(null);
	}

	/** What this node's claims bind: which runs go to it. */
	public BuildRoute route() {
		if (this.buildId == null) {
			return BuildRoute.UNVERSIONED;
		}
		StoredRouting stored = routing();
		boolean ramping = stored.rampingBuild() != null;
		return new BuildRoute(this.buildId, this.buildId.equals(stored.effectiveCurrent()),
				ramping && this.buildId.equals(stored.rampingBuild()), ramping ? stored.rampingPercent() : 0);
	}

	/**
	 * The build of a new run: the ramping build when the workflow id's bucket is under
	 * the percentage, else the current one; unversioned when no build is current. Until
	 * its first task commits on that build (which records the type's behaviour there), it
	 * goes only to that build.
	 */
	public BuildAssignment assignNew(String workflowType, String workflowId) {
		int bucket = BuildAssignment.bucket(workflowId);
		// a start reads the routing only when the poll has not for a while (a node that
		// runs no poll): starts cost no statement of their own
		StoredRouting stored = routing(STARTS_STALE_AFTER * this.maxAgeNanos);
		String target = (stored.rampingBuild() != null && bucket < stored.rampingPercent()) ? stored.rampingBuild()
				: stored.effectiveCurrent();
		if (target == null) {
			return BuildAssignment.UNVERSIONED;
		}
		boolean pinned = !target.equals(this.buildId) || this.workflows.find(workflowType) == null
				|| behavior(workflowType) == VersioningBehavior.PINNED;
		return new BuildAssignment(target, pinned, bucket);
	}

	/**
	 * The build of a run that follows one this node runs (continue-as-new, a retry, the
	 * next cron run): this node's, with the type's behaviour here.
	 */
	public BuildAssignment continued(String workflowType, String workflowId) {
		if (this.buildId == null) {
			return assignNew(workflowType, workflowId);
		}
		return new BuildAssignment(this.buildId, behavior(workflowType) == VersioningBehavior.PINNED,
				BuildAssignment.bucket(workflowId));
	}

	/**
	 * The build of a child a run of this node starts: a pinned parent's children start on
	 * its build (the code they were written with), pinned there until their first task
	 * commits, after which their own type's behaviour applies; other children start as
	 * new runs do.
	 */
	public BuildAssignment child(String parentType, String childType, String childId) {
		if (this.buildId != null && behavior(parentType) == VersioningBehavior.PINNED) {
			return new BuildAssignment(this.buildId, true, BuildAssignment.bucket(childId));
		}
		return assignNew(childType, childId);
	}

	/**
	 * Whether the run's next workflow task runs on this node's build: an unversioned run
	 * anywhere, a pinned run on its build, an auto-upgrading run on the current build (or
	 * the ramping build, for its bucket).
	 */
	public boolean routesHere(RunRow row) {
		BuildAssignment build = row.build();
		if (build.buildId() == null) {
			return true;
		}
		if (build.pinned()) {
			return build.buildId().equals(this.buildId);
		}
		BuildRoute route = route();
		return route.buildId() != null && ((route.rampingHere() && build.rampBucket() < route.rampingPercent())
				|| (route.currentHere() && build.rampBucket() >= route.rampingPercent()));
	}

	/**
	 * The build a task commit of this node records for the run (see {@link #commitSet}).
	 */
	public BuildAssignment committed(RunRow row) {
		if (this.buildId == null) {
			return row.build();
		}
		return new BuildAssignment(this.buildId, behavior(row.workflowType()) == VersioningBehavior.PINNED,
				row.build().rampBucket());
	}

	/** Whether a run of this build may run its first task on this node at once. */
	public boolean here(BuildAssignment build) {
		return build.buildId() == null || build.buildId().equals(this.buildId);
	}

	/** The behaviour of a type on this node. */
	public VersioningBehavior behavior(String workflowType) {
		return resolve(this.workflows.find(workflowType));
	}

	private VersioningBehavior resolve(@Nullable WorkflowDefinition definition) {
		VersioningBehavior declared = (definition != null) ? definition.versioning() : VersioningBehavior.NODE_DEFAULT;
		return (declared == VersioningBehavior.NODE_DEFAULT) ? this.defaultBehavior : declared;
	}

	/**
	 * What every task commit of this node writes to the run row: its build, and whether
	 * the run's type is pinned here (so the behaviour follows the code that runs the
	 * run). Empty for an unversioned node. Literals, not parameters: they are the node's
	 * constants, so its statements stay the same shapes.
	 */
	public String commitSet() {
		String set = this.commitSet;
		if (set == null) {
			set = (this.buildId == null) ? "" : ", build_id = " + literal(this.buildId) + ", pinned = " + pinnedExpr();
			this.commitSet = set;
		}
		return set;
	}

	private String pinnedExpr() {
		// the types not registered by name run on the dynamic workflow, if any
		VersioningBehavior fallback = resolve(this.workflows.find(WorkflowRegistry.ANY_TYPE));
		List<String> differing = new ArrayList<>();
		for (String type : this.workflows.servedTypes()) {
			if (!"*".equals(type) && behavior(type) != fallback) {
				differing.add(literal(type));
			}
		}
		String listed = differing.isEmpty() ? "false"
				: "workflow_type = ANY (ARRAY[" + String.join(", ", differing) + "]::text[])";
		return (fallback == VersioningBehavior.PINNED) ? "NOT (" + listed + ")" : "(" + listed + ")";
	}

	private static String literal(String value) {
		return "'" + value.replace("'", "''") + "'";
	}

	/** A workflow task of this node committed (for the build's drain status). */
	public void taskCommitted(Instant at) {
		this.lastTaskAt = at;
	}

	/**
	 * This node registered: its build is one of the namespace's, and the routing is read
	 * before the node's first start needs it.
	 */
	public void registered() {
		if (this.buildId != null) {
			this.builds.seen(this.namespace, this.buildId);
		}
		this.snapshot.set(new Snapshot(this.builds.routing(this.namespace, this.deadAfterMillis), System.nanoTime()));
	}

	/**
	 * Records that the build is live, with its last task time (each heartbeat).
	 * @param onHeartbeatConnection the builds on the heartbeat's own connection: the
	 * heartbeat never waits for the pool
	 */
	public void heartbeat(BuildRepository onHeartbeatConnection) {
		if (this.buildId == null) {
			return;
		}
		Instant last = this.lastTaskAt;
		boolean newTask = last != null && !Objects.equals(last, this.recordedTaskAt);
		onHeartbeatConnection.live(this.namespace, this.buildId, newTask ? last : null);
		if (newTask) {
			this.recordedTaskAt = last;
		}
	}

	public long deadAfterMillis() {
		return this.deadAfterMillis;
	}

}
