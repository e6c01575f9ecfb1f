package dev.durable.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy that delays: each chunk read from one side is written to the other once the
 * set delay, plus a random jitter, has passed, in order per direction (a chunk never
 * overtakes the one before it). The kernel here has no {@code netem} qdisc, so latency
 * between a node and the database is made by sending that node's connections through
 * this. With no delay set it forwards at once.
 */
final class DelayProxy implements AutoCloseable {

	private record Chunk(byte[] bytes, long dueNanos) {
	}

	private static final Chunk END = new Chunk(new byte[0], 0);

	private final ServerSocket server;

	private final InetSocketAddress target;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private volatile long delayNanos;

	private volatile long jitterNanos;

	DelayProxy(String listenAddress, int port, InetSocketAddress target) throws IOException {
		this.server = new ServerSocket(port, 100, InetAddress.getByName(listenAddress));
		this.target = target;
		Thread.ofPlatform().daemon().name("delay-proxy-" + port).start(this::accept);
	}

	int port() {
		return this.server.getLocalPort();
	}

	/**
	 * Each chunk waits {@code delayMillis} plus up to {@code jitterMillis} more; zero:
	 * none.
	 */
	void delay(long delayMillis, long jitterMillis) {
		this.delayNanos = TimeUnit.MILLISECONDS.toNanos(delayMillis);
		this.jitterNanos = TimeUnit.MILLISECONDS.toNanos(jitterMillis);
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				Socket upstream = new Socket();
				try {
					upstream.connect(this.target, 5_000);
				}
				catch (IOException ex) {
					client.close();
					continue;
				}
				client.setTcpNoDelay(true);
				upstream.setTcpNoDelay(true);
				this.sockets.add(client);
				this.sockets.add(upstream);
				pipe(client, upstream);
				pipe(upstream, client);
			}
			catch (IOException ex) {
				// closed, or one connection failed: the next
			}
		}
	}

	/**
	 * A reader that stamps each chunk with its due time and a writer that sends it then.
	 */
	private void pipe(Socket from, Socket to) {
		BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
		Thread.ofVirtual().start(() -> {
			long lastDue = 0;
			byte[] buffer = new byte[16 * 1024];
			try (InputStream in = from.getInputStream()) {
				int n;
				while ((n = in.read(buffer)) >= 0) {
					long jitter = this.jitterNanos;
					long due = System.nanoTime() + this.delayNanos
							+ ((jitter > 0) ? ThreadLocalRandom.current().nextLong(jitter) : 0);
					// in order: a chunk with less jitter waits for the one before it
					lastDue = Math.max(due, lastDue);
					queue.add(new Chunk(Arrays.copyOf(buffer, n), lastDue));
				}
			}
			catch (IOException ex) {
				// the connection ended
			}
			queue.add(END);
		});
		Thread.ofVirtual().start(() -> {
			try (OutputStream out = to.getOutputStream()) {
				while (true) {
					Chunk chunk = queue.take();
					if (chunk == END) {
						break;
					}
					long wait = chunk.dueNanos() - System.nanoTime();
					if (wait > 0) {
						TimeUnit.NANOSECONDS.sleep(wait);
					}
					out.write(chunk.bytes());
					out.flush();
				}
			}
			catch (IOException | InterruptedException ex) {
				// the connection ended
			}
			closeQuietly(from);
			closeQuietly(to);
			this.sockets.remove(from);
			this.sockets.remove(to);
		});
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

	@Override
	public void close() {
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
		this.sockets.forEach(DelayProxy::closeQuietly);
	}

}
