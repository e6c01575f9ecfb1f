package dev.durable.workflow.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy to a local server whose open connections can be frozen: from then on it
 * drops every byte both ways but keeps the sockets open, as a server that vanished
 * without a FIN or RST (a crashed or partitioned host) looks to its clients. New
 * connections pass again.
 */
public final class FreezingProxy implements AutoCloseable {

	private final ServerSocket server;

	private final int targetPort;

	private final List<Link> links = new CopyOnWriteArrayList<>();

	private volatile boolean open = true;

	/** One proxied connection. */
	private static final class Link {

		final Socket client;

		final Socket upstream;

		volatile boolean frozen;

		Link(Socket client, Socket upstream) {
			this.client = client;
			this.upstream = upstream;
		}

	}

	public FreezingProxy(int firstPort, int lastPort, int targetPort) {
		this.targetPort = targetPort;
		this.server = bind(firstPort, lastPort);
		Thread.ofPlatform().daemon().name("freezing-proxy").start(this::accept);
	}

	public int port() {
		return this.server.getLocalPort();
	}

	/** Makes every connection open now silent, both ways, without closing it. */
	public void freezeOpenConnections() {
		this.links.forEach((link) -> link.frozen = true);
	}

	private void accept() {
		while (this.open) {
			try {
				Socket client = this.server.accept();
				Socket upstream = new Socket("127.0.0.1", this.targetPort);
				Link link = new Link(client, upstream);
				this.links.add(link);
				Thread.ofPlatform().daemon().start(() -> pipe(link, client, upstream));
				Thread.ofPlatform().daemon().start(() -> pipe(link, upstream, client));
			}
			catch (IOException ex) {
				// closed, or the target refused: the client sees its connection fail
			}
		}
	}

	private static void pipe(Link link, Socket from, Socket to) {
		byte[] buffer = new byte[8192];
		try (InputStream in = from.getInputStream()) {
			OutputStream out = to.getOutputStream();
			int read;
			while ((read = in.read(buffer)) >= 0) {
				if (!link.frozen) {
					out.write(buffer, 0, read);
					out.flush();
				}
			}
		}
		catch (IOException ex) {
			// one side closed
		}
		if (!link.frozen) {
			close(link);
		}
	}

	private static void close(Link link) {
		try {
			link.client.close();
			link.upstream.close();
		}
		catch (IOException ex) {
			// already closed
		}
	}

	private static ServerSocket bind(int first, int last) {
		for (int port = first; port <= last; port++) {
			try {
				return new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"));
			}
			catch (IOException ex) {
				// taken
			}
		}
		throw new IllegalStateException("No free port in " + first + "-" + last);
	}

	@Override
	public void close() throws IOException {
		this.open = false;
		this.server.close();
		this.links.forEach(FreezingProxy::close);
	}

}
