package dev.durable.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

import org.jspecify.annotations.Nullable;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.NullNode;

/**
 * The REST API of a running application, over {@link HttpClient}: every call answers the
 * JSON body of a 2xx answer, and turns anything else into a {@link CliException} with the
 * exit code of {@link ExitCode} (the server's problem body kept).
 */
final class DurableApi {

	/**
	 * The base path the starter serves its endpoints under unless the application changes
	 * it.
	 */
	static final String DEFAULT_BASE_PATH = "/durable";

	static final String DEFAULT_URL = "http://localhost:8080" + DEFAULT_BASE_PATH;

	private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

	/**
	 * Longer than the longest wait the server holds a request (60 seconds for a result).
	 */
	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(90);

	private final URI base;

	private final @Nullable String authorization;

	private final HttpClient http;

	private final JsonMapper json;

	DurableApi(URI base, @Nullable String authorization, JsonMapper json) {
		this.base = base;
		this.authorization = authorization;
		this.json = json;
		this.http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(CONNECT_TIMEOUT)
			.build();
	}

	/**
	 * The API a command line and the environment name: {@code --url} or
	 * {@code DURABLE_URL} (a URL without a path gets {@code /durable}); {@code --token}
	 * or {@code DURABLE_TOKEN} (bearer), or {@code --user name[:password]} or
	 * {@code DURABLE_USER} with {@code DURABLE_PASSWORD} (basic).
	 */
	static DurableApi of(CommandLine line, Map<String, String> env, JsonMapper json) {
		String url = line.option("url", env.getOrDefault("DURABLE_URL", DEFAULT_URL));
		String token = line.option("token", env.getOrDefault("DURABLE_TOKEN", ""));
		String user = line.option("user", env.getOrDefault("DURABLE_USER", ""));
		if (!token.isEmpty() && !user.isEmpty()) {
			throw CliException
				.usage("Give a bearer token (--token, DURABLE_TOKEN) or a user (--user, DURABLE_USER), not both");
		}
		String authorization = null;
		if (!token.isEmpty()) {
			authorization = "Bearer " + token;
		}
		else if (!user.isEmpty()) {
			String credentials = user.contains(":") ? user : user + ":" + env.getOrDefault("DURABLE_PASSWORD", "");
			authorization = "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
		}
		return new DurableApi(base(url), authorization, json);
	}

	private static URI base(String url) {
		URI uri;
		try {
			uri = URI.create(url.strip());
		}
		catch (IllegalArgumentException ex) {
			throw CliException.usage("Not a URL: '" + url + "'");
		}
		if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
			throw CliException.usage("The URL must be http:// or https:// with a host, not '" + url + "'");
		}
		String path = (uri.getRawPath() == null) ? "" : uri.getRawPath().replaceAll("/+$", "");
		String root = uri.getScheme() + "://" + uri.getRawAuthority();
		return URI.create(root + (path.isEmpty() ? DEFAULT_BASE_PATH : path));
	}

	URI base() {
		return this.base;
	}

	/** A path segment, encoded (ids may hold characters a URL reserves). */
	static String segment(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
	}

	/**
	 * A query string of the pairs whose value is not {@code null}; a collection value
	 * repeats the name.
	 */
	static String query(Object... namesAndValues) {
		StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
		for (int i = 0; i < namesAndValues.length; i += 2) {
			String name = (String) namesAndValues[i];
			Object value = namesAndValues[i + 1];
			Collection<?> values = (value instanceof Collection<?> many) ? many
					: (value == null) ? List.of() : List.of(value);
			for (Object one : values) {
				query.add(name + "=" + URLEncoder.encode(String.valueOf(one), StandardCharsets.UTF_8));
			}
		}
		return query.toString();
	}

	/** One header whose value may be {@code null} (then it is left out). */
	static Map<String, @Nullable String> headers(String name, @Nullable String value) {
		Map<String, @Nullable String> headers = new LinkedHashMap<>();
		headers.put(name, value);
		return headers;
	}

	JsonNode get(String pathAndQuery) {
		return send("GET", pathAndQuery, null, Map.of()).body();
	}

	JsonNode post(String pathAndQuery, @Nullable JsonNode body) {
		return send("POST", pathAndQuery, body, Map.of()).body();
	}

	JsonNode put(String pathAndQuery) {
		return send("PUT", pathAndQuery, null, Map.of()).body();
	}

	/**
	 * An answer of 2xx.
	 *
	 * @param status its status
	 * @param body its JSON body; {@code null} (a JSON null) when it has none
	 */
	record Answer(int status, JsonNode body) {
	}

	/**
	 * Sends a request and reads its answer.
	 * @param method the HTTP method
	 * @param pathAndQuery below the base URL, with its query string
	 * @param body a JSON body, or {@code null} for none
	 * @param headers more headers (those with a {@code null} value are left out)
	 * @return the answer, when its status is 2xx
	 * @throws CliException otherwise, or when the server cannot be reached
	 */
	Answer send(String method, String pathAndQuery, @Nullable JsonNode body, Map<String, @Nullable String> headers) {
		URI uri = URI.create(this.base + pathAndQuery);
		HttpRequest.Builder request = HttpRequest.newBuilder(uri)
			.timeout(REQUEST_TIMEOUT)
			.header("Accept", "application/json, application/problem+json");
		if (this.authorization != null) {
			request.header("Authorization", this.authorization);
		}
		new LinkedHashMap<>(headers).forEach((name, value) -> {
			if (value != null) {
				request.header(name, value);
			}
		});
		if (body != null) {
			request.header("Content-Type", "application/json");
			request.method(method, HttpRequest.BodyPublishers.ofString(this.json.writeValueAsString(body)));
		}
		else {
			request.method(method, HttpRequest.BodyPublishers.noBody());
		}
		HttpResponse<String> response;
		try {
			response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new CliException(ExitCode.UNAVAILABLE, "Cannot reach " + this.base + ": " + describe(ex), null, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CliException(ExitCode.ERROR, "Interrupted", null, ex);
		}
		JsonNode answer = read(response);
		if (response.statusCode() >= 200 && response.statusCode() < 300) {
			return new Answer(response.statusCode(), answer);
		}
		throw problem(response.statusCode(), answer);
	}

	private JsonNode read(HttpResponse<String> response) {
		String text = response.body();
		if (text == null || text.isBlank()) {
			return NullNode.getInstance();
		}
		try {
			return this.json.readTree(text);
		}
		catch (JacksonException ex) {
			if (response.statusCode() >= 400) {
				return this.json.getNodeFactory().objectNode().put("detail", text.strip());
			}
			throw new CliException(ExitCode.ERROR,
					"The server answered something that is not JSON (HTTP " + response.statusCode() + ")", null, ex);
		}
	}

	private static CliException problem(int status, JsonNode problem) {
		String detail = Output.text(problem.path("detail"));
		if (detail.isBlank()) {
			detail = Output.text(problem.path("title"));
		}
		if (detail.isBlank()) {
			detail = "HTTP " + status;
		}
		String code = Output.text(problem.path("code"));
		String message = detail + " (" + (code.isEmpty() ? "" : code + ", ") + "HTTP " + status + ")";
		return new CliException(ExitCode.ofStatus(status), message, problem.isObject() ? problem : null, null);
	}

	/**
	 * What went wrong with the connection, in words: the JDK's exceptions often have no
	 * message.
	 */
	private static String describe(IOException ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof java.nio.channels.UnresolvedAddressException
					|| cause instanceof java.net.UnknownHostException) {
				return "unknown host";
			}
		}
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof java.net.http.HttpConnectTimeoutException) {
				return "no connection within " + CONNECT_TIMEOUT.toSeconds() + " seconds";
			}
			if (cause instanceof java.net.http.HttpTimeoutException) {
				return "no answer within " + REQUEST_TIMEOUT.toSeconds() + " seconds";
			}
			if (cause instanceof java.net.ConnectException) {
				return "connection refused";
			}
		}
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
				return cause.getMessage();
			}
		}
		return ex.getClass().getSimpleName();
	}

}
