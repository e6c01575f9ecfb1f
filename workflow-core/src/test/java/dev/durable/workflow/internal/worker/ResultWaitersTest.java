package dev.durable.workflow.internal.worker;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The blocked-caller check that the test kit's time skipping relies on: a caller whose
 * wait was answered counts as blocked no more, even while its thread has not left the
 * wait (a busy machine), so time does not move under its next step.
 */
class ResultWaitersTest {

	private final ResultWaiters waiters = new ResultWaiters();

	@Test
	void aCallerWhoseWaitWasAnsweredIsNoLongerBlockedBeforeItLeaves() throws Exception {
		CountDownLatch leave = new CountDownLatch(1);
		CompletableFuture<Object> answered = new HeldFuture(leave);
		Thread caller = Thread.ofPlatform().start(() -> this.waiters.pause(answered, Long.MAX_VALUE, 60_000));
		while (this.waiters.waiting() == 0) {
			Thread.onSpinWait();
		}
		assertThat(this.waiters.anyBlocked()).as("waiting for an answer").isTrue();

		answered.complete(null);
		assertThat(this.waiters.waiting()).as("still inside its wait").isEqualTo(1);
		assertThat(this.waiters.anyBlocked()).as("answered").isFalse();

		leave.countDown();
		caller.join(10_000);
		assertThat(caller.isAlive()).isFalse();
		assertThat(this.waiters.waiting()).isZero();
		assertThat(this.waiters.anyBlocked()).isFalse();
	}

	/** A future whose waiter, once woken, stays in its wait until the latch opens. */
	private static final class HeldFuture extends CompletableFuture<Object> {

		private final CountDownLatch leave;

		HeldFuture(CountDownLatch leave) {
			this.leave = leave;
		}

		@Override
		public Object get(long timeout, TimeUnit unit)
				throws InterruptedException, ExecutionException, TimeoutException {
			Object value = super.get(timeout, unit);
			this.leave.await();
			return value;
		}

	}

}
