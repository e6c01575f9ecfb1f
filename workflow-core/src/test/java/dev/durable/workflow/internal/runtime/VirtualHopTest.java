package dev.durable.workflow.internal.runtime;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The stepping of coroutines moves to a virtual thread when its caller is a platform
 * thread (where every hand-over would be an OS wake-up), stays where it is on a virtual
 * thread, and hands back results, failures and interrupts as if it had run on the caller.
 */
class VirtualHopTest {

	@Test
	void fromAPlatformThreadTheWorkRunsOnAVirtualThread() throws Exception {
		assertThat(Thread.currentThread().isVirtual()).isFalse();
		assertThat(VirtualHop.call(() -> Thread.currentThread().isVirtual())).isTrue();
	}

	@Test
	void onAVirtualThreadTheWorkRunsWhereItIs() throws Exception {
		AtomicReference<Thread> ran = new AtomicReference<>();
		AtomicReference<Thread> caller = new AtomicReference<>();
		Thread.ofVirtual().start(() -> {
			caller.set(Thread.currentThread());
			try {
				VirtualHop.call(() -> {
					ran.set(Thread.currentThread());
					return null;
				});
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		}).join();
		assertThat(ran.get()).isSameAs(caller.get());
	}

	@Test
	void failuresReachTheCallerUnwrapped() {
		assertThatThrownBy(() -> VirtualHop.call(() -> {
			throw new IllegalArgumentException("bad step");
		})).isExactlyInstanceOf(IllegalArgumentException.class).hasMessage("bad step");
		assertThatThrownBy(() -> VirtualHop.call(() -> {
			throw new StackOverflowError("deep");
		})).isExactlyInstanceOf(StackOverflowError.class);
		assertThatThrownBy(() -> VirtualHop.call(() -> {
			throw new InterruptedException("stop");
		})).isExactlyInstanceOf(InterruptedException.class);
	}

	@Test
	void anInterruptedCallerInterruptsTheWorkAndReturnsOnlyOnceItEnded() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		AtomicBoolean workEnded = new AtomicBoolean();
		AtomicReference<Throwable> callerSaw = new AtomicReference<>();
		AtomicBoolean endedBeforeCallerReturned = new AtomicBoolean();
		Thread caller = Thread.ofPlatform().start(() -> {
			try {
				VirtualHop.call(() -> {
					started.countDown();
					try {
						Thread.sleep(60_000);
					}
					finally {
						Thread.sleep(50); // still winding down when interrupted
						workEnded.set(true);
					}
					return null;
				});
			}
			catch (Throwable ex) {
				endedBeforeCallerReturned.set(workEnded.get());
				callerSaw.set(ex);
			}
		});
		started.await();
		caller.interrupt();
		caller.join(10_000);
		assertThat(callerSaw.get()).isInstanceOf(InterruptedException.class);
		assertThat(endedBeforeCallerReturned).isTrue();
	}

}
