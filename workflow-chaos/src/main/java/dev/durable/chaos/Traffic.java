package dev.durable.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The clients: starts and signals over the generated REST API of whichever node serves,
 * retried (with the same idempotency key) across connection failures and 5xx answers, as
 * a careful client would. Every 5xx is recorded, and is a violation unless the harness
 * had made the database unreachable for that node then.
 */
final class Traffic {

	private static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"([A-Z_]+)\"");

	private static final Duration GIVE_UP = Duration.ofMinutes(3);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final List<NodeProcess> nodes;

	private final Outages outages;

	private final ChaosReport report;

	private final Random random;

	Traffic(List<NodeProcess> nodes, Outages outages, ChaosReport report, long seed) {
		this.nodes = nodes;
		this.outages = outages;
		this.report = report;
		this.random = new Random(seed);
	}

	/** Starts a chaos run (its workflow id is also the request's idempotency key). */
	void start(String workflowId, Duration timer) throws InterruptedException {
		String body = "{\"type\":\"" + ChaosWorkflow.TYPE + "\",\"workflowId\":\"" + workflowId + "\",\"input\":\""
				+ timer + "\"}";
		post("/durable/workflows", body, workflowId, "start");
	}

	/**
	 * Sends the run its signal; a second call with the same key must be delivered once.
	 */
	void signal(String workflowId, String payload, String key) throws InterruptedException {
		String path = "/durable/workflows/" + URLEncoder.encode(workflowId, StandardCharsets.UTF_8) + "/signals/"
				+ ChaosWorkflow.SIGNAL;
		post(path, "\"" + payload + "\"", key, "signal");
	}

	private void post(String path, String body, String key, String what) throws InterruptedException {
		long deadline = System.nanoTime() + GIVE_UP.toNanos();
		while (System.nanoTime() < deadline) {
			NodeProcess node = pick();
			if (node == null) {
				Thread.sleep(200);
				continue;
			}
			HttpRequest request = HttpRequest.newBuilder(URI.create(node.baseUrl() + path))
				.timeout(Duration.ofSeconds(15))
				.header("Content-Type", "application/json")
				.header("Idempotency-Key", key)
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build();
			HttpResponse<String> response;
			Instant sent = Instant.now();
			try {
				response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			}
			catch (HttpTimeoutException ex) {
				if (this.outages.partitionedPastLease(sent, node.name)) {
					this.report.violation(what + " " + key + " sent to " + node.name + " at " + sent
							+ ", partitioned from the database past its lease, got no answer within 15 s (not 503)");
				}
				this.report.count("requests retried after no answer within 15 s");
				Thread.sleep(100);
				continue;
			}
			catch (IOException ex) {
				// the node died, paused or restarts: another one takes the retry
				this.report.count("requests retried after a connection failure");
				Thread.sleep(100);
				continue;
			}
			int status = response.statusCode();
			if (status >= 200 && status < 300) {
				this.report.count(what + "s accepted");
				return;
			}
			Matcher code = CODE.matcher(response.body());
			String problem = status + " " + (code.find() ? code.group(1) : "");
			if (status >= 500) {
				Instant now = Instant.now();
				if (this.outages.covers(now, node.name)) {
					this.report.count("5xx during a database outage (" + problem.trim() + ")");
				}
				else {
					this.report.violation("5xx outside a database outage: " + what + " " + key + " on " + node.name
							+ " at " + now + ": " + problem + " " + abbreviate(response.body()));
				}
				Thread.sleep(200);
				continue;
			}
			this.report.violation("unexpected answer to " + what + " " + key + " on " + node.name + ": " + problem + " "
					+ abbreviate(response.body()));
			return;
		}
		this.report.violation(what + " " + key + " not accepted within " + GIVE_UP);
	}

	private NodeProcess pick() {
		List<NodeProcess> serving = this.nodes.stream().filter(NodeProcess::isServing).toList();
		if (serving.isEmpty()) {
			return null;
		}
		synchronized (this.random) {
			return serving.get(this.random.nextInt(serving.size()));
		}
	}

	private static String abbreviate(String body) {
		return (body.length() > 300) ? body.substring(0, 300) + "..." : body;
	}

}
