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
 * A TCP proxy between one node and its database that can be partitioned like a network
 * that drops packets: while partitioned it keeps every connection open and accepts new
 * ones, but forwards nothing either way, so the node's reads wait without a FIN or RST.
 * Healing forwards again; the connections that lived through the partition are closed
 * then (their streams lost bytes and could not go on), as the node's timeouts would have
 * ended them.
 */
public final class PartitionProxy implements AutoCloseable {

	private final ServerSocket server;

	private final int targetPort;

	private final List<Link> links = new CopyOnWriteArrayList<>();

	private volatile boolean open = true;

	private volatile boolean partitioned;

	private static final class Link {

		final Socket client;

		final Socket upstream;

		volatile boolean dropping;

		Link(Socket client, Socket upstream, boolean dropping) {
			this.client = client;
			this.upstream = upstream;
			this.dropping = dropping;
		}

	}

	public PartitionProxy(int targetPort) {
		this.targetPort = targetPort;
		try {
			this.server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
		Thread.ofPlatform().daemon().name("partition-proxy").start(this::accept);
	}

	public int port() {
		return this.server.getLocalPort();
	}

	/** From now on nothing passes, on open connections or on new ones. */
	public void partition() {
		this.partitioned = true;
		this.links.forEach((link) -> link.dropping = true);
	}

	/**
	 * Forwards again: new connections pass; those that lived through the partition are
	 * closed.
	 */
	public void heal() {
		this.partitioned = false;
		for (Link link : this.links) {
			if (link.dropping) {
				close(link);
			}
		}
	}

	private void accept() {
		while (this.open) {
			try {
				Socket client = this.server.accept();
				Socket upstream = new Socket("127.0.0.1", this.targetPort);
				Link link = new Link(client, upstream, this.partitioned);
				this.links.add(link);
				Thread.ofPlatform().daemon().start(() -> pipe(link, client, upstream));
				Thread.ofPlatform().daemon().start(() -> pipe(link, upstream, client));
			}
			catch (IOException ex) {
				// closed, or the target refused: the client sees its connection fail
			}
		}
	}

	private void pipe(Link link, Socket from, Socket to) {
		byte[] buffer = new byte[8192];
		try (InputStream in = from.getInputStream()) {
			OutputStream out = to.getOutputStream();
			int read;
			while ((read = in.read(buffer)) >= 0) {
				if (!link.dropping) {
					out.write(buffer, 0, read);
					out.flush();
				}
			}
		}
		catch (IOException ex) {
			// one side closed
		}
		if (!link.dropping) {
			close(link);
		}
	}

	private void close(Link link) {
		this.links.remove(link);
		try {
			link.client.close();
			link.upstream.close();
		}
		catch (IOException ex) {
			// already closed
		}
	}

	@Override
	public void close() throws IOException {
		this.open = false;
		this.server.close();
		this.links.forEach(this::close);
	}

}
