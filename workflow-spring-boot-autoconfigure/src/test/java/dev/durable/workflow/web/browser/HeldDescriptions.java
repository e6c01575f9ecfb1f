package dev.durable.workflow.web.browser;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Puts a page's reads of one run out of step, as a run closing between them would: once
 * armed for a workflow id, the run's description waits until {@link #release()} while its
 * history is answered at once. A test then closes the run between the two answers.
 */
class HeldDescriptions extends OncePerRequestFilter {

	private volatile @Nullable String workflowId;

	private volatile CountDownLatch held = new CountDownLatch(1);

	private volatile CountDownLatch historyAnswered = new CountDownLatch(1);

	private volatile CountDownLatch release = new CountDownLatch(1);

	/** Holds the next descriptions of the run until {@link #release()}. */
	void arm(String workflowId) {
		this.held = new CountDownLatch(1);
		this.historyAnswered = new CountDownLatch(1);
		this.release = new CountDownLatch(1);
		this.workflowId = workflowId;
	}

	/**
	 * Whether a description of the run is held and its history was answered meanwhile.
	 */
	boolean awaitOutOfStep() throws InterruptedException {
		return this.held.await(30, TimeUnit.SECONDS) && this.historyAnswered.await(30, TimeUnit.SECONDS);
	}

	/** Lets the held descriptions go, and holds no more. */
	void release() {
		this.workflowId = null;
		this.release.countDown();
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String armed = this.workflowId;
		String path = request.getRequestURI();
		if (armed == null || !"GET".equals(request.getMethod())) {
			chain.doFilter(request, response);
		}
		else if (path.endsWith("/workflows/" + armed)) {
			this.held.countDown();
			try {
				this.release.await(60, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			chain.doFilter(request, response);
		}
		else if (path.endsWith("/workflows/" + armed + "/history")) {
			chain.doFilter(request, response);
			response.flushBuffer();
			this.historyAnswered.countDown();
		}
		else {
			chain.doFilter(request, response);
		}
	}

}
