package dev.durable.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The nodes' own network: one network namespace per node ({@code dchaos-n<i>}), each
 * joined by a veth pair to a bridge ({@code dchaos-br}) on which the host has
 * {@value #HOST}. The database listens on that address, and the harness reaches the
 * nodes' HTTP ports at theirs ({@code 10.231.77.<10+i>}). The namespaces have no route
 * beyond that /24, so nothing a node sends leaves the bridge. Faults are {@code iptables}
 * rules inside a node's namespace, in the chains {@code DCHAOS-IN} and {@code DCHAOS-OUT}
 * that its {@code INPUT} and {@code OUTPUT} jump to: packets dropped, never connections
 * reset.
 * <p>
 * Needs root, {@code ip} (iproute2) and {@code iptables} with the {@code statistic}
 * match. Every name starts with {@value #PREFIX}: what a killed run left behind is
 * removed by that prefix before a new run builds its own, and again at the end.
 */
final class ChaosNetwork implements AutoCloseable {

	static final String PREFIX = "dchaos";

	/**
	 * The host's address on the bridge: the database and the delaying proxy listen on it.
	 */
	static final String HOST = "10.231.77.1";

	private static final String SUBNET_PREFIX = "10.231.77.";

	private static final String BRIDGE = PREFIX + "-br";

	private final int nodes;

	private final ChaosReport report;

	private ChaosNetwork(int nodes, ChaosReport report) {
		this.nodes = nodes;
		this.report = report;
	}

	/** Why the harness cannot build the network here, or {@code null} when it can. */
	static @Nullable String unavailableReason() {
		if (!"root".equals(System.getProperty("user.name"))) {
			return "not root (network namespaces, veth pairs and iptables rules need root)";
		}
		if (executable("ip") == null) {
			return "no `ip` command (install iproute2)";
		}
		if (executable("iptables") == null) {
			return "no `iptables` command (install iptables)";
		}
		// root in a container may still lack the right to make namespaces or rules: try
		// both
		String probe = PREFIX + "-probe";
		try {
			removeLeftovers();
			run("ip", "netns", "add", probe);
			run("ip", "netns", "exec", probe, "iptables", "-A", "INPUT", "-m", "statistic", "--mode", "random",
					"--probability", "0.01", "-j", "DROP");
		}
		catch (IOException ex) {
			return "cannot make a network namespace with an iptables statistic rule here: " + ex.getMessage();
		}
		finally {
			try {
				removeLeftovers();
			}
			catch (IOException ex) {
				// reported by the run's own cleanup
			}
		}
		return null;
	}

	private static @Nullable Path executable(String name) {
		for (String dir : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
			Path path = Path.of(dir, name);
			if (Files.isExecutable(path)) {
				return path;
			}
		}
		return null;
	}

	/**
	 * Removes the leftovers of an earlier run, then builds the bridge and one namespace
	 * per node.
	 */
	static ChaosNetwork create(int nodes, ChaosReport report) throws IOException {
		removeLeftovers();
		ChaosNetwork network = new ChaosNetwork(nodes, report);
		try {
			run("ip", "link", "add", BRIDGE, "type", "bridge");
			run("ip", "addr", "add", HOST + "/24", "dev", BRIDGE);
			run("ip", "link", "set", BRIDGE, "up");
			for (int i = 1; i <= nodes; i++) {
				String ns = namespace(i);
				run("ip", "netns", "add", ns);
				run("ip", "link", "add", PREFIX + "-v" + i, "type", "veth", "peer", "name", PREFIX + "-e" + i, "netns",
						ns);
				run("ip", "link", "set", PREFIX + "-v" + i, "master", BRIDGE, "up");
				run("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up");
				run("ip", "netns", "exec", ns, "ip", "addr", "add", address(i) + "/24", "dev", PREFIX + "-e" + i);
				run("ip", "netns", "exec", ns, "ip", "link", "set", PREFIX + "-e" + i, "up");
				for (String[] chain : new String[][] { { "DCHAOS-IN", "INPUT" }, { "DCHAOS-OUT", "OUTPUT" } }) {
					run("ip", "netns", "exec", ns, "iptables", "-N", chain[0]);
					run("ip", "netns", "exec", ns, "iptables", "-A", chain[1], "-j", chain[0]);
				}
			}
			report.line("network: bridge " + BRIDGE + " (" + HOST + "/24), " + nodes + " node namespaces "
					+ namespace(1) + (nodes > 1 ? ".." + namespace(nodes) : ""));
			return network;
		}
		catch (IOException | RuntimeException ex) {
			network.close();
			throw ex;
		}
	}

	static String namespace(int node) {
		return PREFIX + "-n" + node;
	}

	static String address(int node) {
		return SUBNET_PREFIX + (10 + node);
	}

	/** The command prefix that runs a program in node {@code i}'s namespace. */
	static List<String> launcher(int node) {
		return List.of("ip", "netns", "exec", namespace(node));
	}

	/**
	 * Drops the database's packets in node {@code i}'s namespace (the server's port and
	 * the proxy's, on the host address): {@code in} its answers, {@code out} what the
	 * node sends it.
	 */
	void partitionFromDatabase(int node, List<Integer> databasePorts, boolean in, boolean out) throws IOException {
		String ns = namespace(node);
		for (int port : databasePorts) {
			if (out) {
				run("ip", "netns", "exec", ns, "iptables", "-A", "DCHAOS-OUT", "-p", "tcp", "-d", HOST, "--dport",
						Integer.toString(port), "-j", "DROP");
			}
			if (in) {
				run("ip", "netns", "exec", ns, "iptables", "-A", "DCHAOS-IN", "-p", "tcp", "-s", HOST, "--sport",
						Integer.toString(port), "-j", "DROP");
			}
		}
	}

	/**
	 * Drops every packet between the nodes (both ways), not those to and from the host.
	 */
	void partitionNodes() throws IOException {
		for (int i = 1; i <= this.nodes; i++) {
			for (int j = 1; j <= this.nodes; j++) {
				if (i != j) {
					run("ip", "netns", "exec", namespace(i), "iptables", "-A", "DCHAOS-OUT", "-d", address(j), "-j",
							"DROP");
					run("ip", "netns", "exec", namespace(i), "iptables", "-A", "DCHAOS-IN", "-s", address(j), "-j",
							"DROP");
				}
			}
		}
	}

	/** Drops each packet of node {@code i}'s link, both ways, with this probability. */
	void loss(int node, double probability) throws IOException {
		String ns = namespace(node);
		for (String chain : List.of("DCHAOS-IN", "DCHAOS-OUT")) {
			run("ip", "netns", "exec", ns, "iptables", "-A", chain, "-m", "statistic", "--mode", "random",
					"--probability", Double.toString(probability), "-j", "DROP");
		}
	}

	/** Removes every fault rule of node {@code i}'s namespace. */
	void heal(int node) throws IOException {
		for (String chain : List.of("DCHAOS-IN", "DCHAOS-OUT")) {
			run("ip", "netns", "exec", namespace(node), "iptables", "-F", chain);
		}
	}

	void healAll() throws IOException {
		for (int i = 1; i <= this.nodes; i++) {
			heal(i);
		}
	}

	/** Removes the namespaces (their veth ends and rules go with them) and the bridge. */
	@Override
	public void close() {
		try {
			removeLeftovers();
		}
		catch (IOException ex) {
			this.report.line("network cleanup incomplete: " + ex.getMessage());
		}
	}

	/** Every namespace and link named {@value #PREFIX}-*, whoever left it. */
	static void removeLeftovers() throws IOException {
		for (String line : output("ip", "netns", "list")) {
			String name = line.split("\\s+")[0];
			if (name.startsWith(PREFIX + "-")) {
				run("ip", "netns", "del", name);
			}
		}
		for (String line : output("ip", "-o", "link", "show")) {
			// "12: dchaos-v1@if11: <...>"
			String[] parts = line.split(":\\s+", 3);
			if (parts.length > 1) {
				String name = parts[1].split("@")[0];
				if (name.startsWith(PREFIX + "-")) {
					try {
						run("ip", "link", "del", name);
					}
					catch (IOException ex) {
						// a veth end goes with its peer's namespace: gone between the
						// listing and now
					}
				}
			}
		}
	}

	private static void run(String... command) throws IOException {
		output(command);
	}

	private static List<String> output(String... command) throws IOException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output;
		try {
			output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IOException("Timed out: " + String.join(" ", command));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted: " + String.join(" ", command), ex);
		}
		if (process.exitValue() != 0) {
			throw new IOException(
					"Failed (exit " + process.exitValue() + "): " + String.join(" ", command) + ": " + output.strip());
		}
		return new ArrayList<>(output.lines().toList());
	}

}
