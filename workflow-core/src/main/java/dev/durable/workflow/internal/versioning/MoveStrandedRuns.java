package dev.durable.workflow.internal.versioning;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.internal.node.NodeService;
import dev.durable.workflow.internal.store.BuildRepository;
import dev.durable.workflow.internal.store.BuildRepository.PinnedRun;
import dev.durable.workflow.internal.support.BackgroundThreads;
import dev.durable.workflow.internal.support.Errors;

/**
 * The automatic policy for stranded pinned runs: on a node of the current build, every
 * interval, the runs of the configured types whose build's last node has been gone for
 * the type's time are replayed on this node's code and moved here when they replay; the
 * others stay, their refusal recorded (not tried again by the policy; an operator's move
 * tries again).
 */
public final class MoveStrandedRuns implements NodeService {

	private static final Logger log = LoggerFactory.getLogger(MoveStrandedRuns.class);

	/** Runs replayed per type per round: a round stays short. */
	private static final int BATCH = 50;

	private final BuildRouter routing;

	private final BuildRepository builds;

	private final MoveRuns moves;

	private final Map<String, Duration> after;

	private final Duration interval;

	private volatile boolean running;

	private Thread thread;

	/**
	 * @param after per workflow type, how long the last node of a run's build must have
	 * been gone
	 * @param interval how often the policy looks
	 */
	public MoveStrandedRuns(BuildRouter routing, BuildRepository builds, MoveRuns moves, Map<String, Duration> after,
			Duration interval) {
		this.routing = routing;
		this.builds = builds;
		this.moves = moves;
		this.after = Map.copyOf(after);
		this.interval = interval;
	}

	@Override
	public void start() {
		if (this.after.isEmpty() || this.routing.buildId() == null) {
			return;
		}
		this.running = true;
		this.thread = Thread.ofPlatform().daemon().name("durable-move-stranded").start(this::loop);
	}

	private void loop() {
		while (this.running) {
			try {
				Thread.sleep(this.interval.toMillis());
				once();
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (RuntimeException ex) {
				log.warn("Moving stranded runs failed: {}", Errors.rootMessage(ex));
			}
		}
	}

	/**
	 * One round: nothing unless this node's build is current.
	 * @return how many runs moved
	 */
	public int once() {
		String here = this.routing.buildId();
		if (here == null || !this.routing.route().currentHere()) {
			return 0;
		}
		int moved = 0;
		for (Map.Entry<String, Duration> type : this.after.entrySet()) {
			if (!this.running) {
				break;
			}
			List<PinnedRun> stranded = this.builds.stranded(this.routing.namespace(), type.getKey(), here,
					this.routing.deadAfterMillis(), type.getValue().toMillis(), BATCH);
			if (!stranded.isEmpty()) {
				moved += this.moves.move(stranded, here).moved().size();
			}
		}
		return moved;
	}

	@Override
	public void beginStop() {
		this.running = false;
		if (this.thread != null) {
			this.thread.interrupt();
		}
	}

	/** Waits (bounded) for a round under way, which may still move runs, to end. */
	@Override
	public void awaitStopped(long deadlineNanos) {
		BackgroundThreads.awaitEnded(this.thread);
	}

}
