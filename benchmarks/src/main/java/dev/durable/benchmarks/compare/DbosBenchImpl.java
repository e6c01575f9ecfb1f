package dev.durable.benchmarks.compare;

import java.time.Duration;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.workflow.Workflow;

/**
 * The scenarios' workflows written for DBOS Transact: steps through {@link DBOS#runStep},
 * the signal through {@link DBOS#recv} (sent by {@link DBOS#send} from the client).
 */
public class DbosBenchImpl implements DbosBench {

	/** Longer than any scenario, so the wait never times out during a run. */
	private static final Duration RECV_TIMEOUT = Duration.ofHours(1);

	private final DBOS dbos;

	public DbosBenchImpl(DBOS dbos) {
		this.dbos = dbos;
	}

	@Override
	@Workflow(name = "bench-steps")
	public int steps(int count) {
		int sum = 0;
		for (int i = 0; i < count; i++) {
			int index = i;
			sum += this.dbos.runStep(() -> index, "noop");
		}
		return sum;
	}

	@Override
	@Workflow(name = "bench-wait")
	public String waitForSignal() {
		ParkProbe.reached();
		return this.dbos.<String>recv("go", RECV_TIMEOUT).orElse("timed out");
	}

}
