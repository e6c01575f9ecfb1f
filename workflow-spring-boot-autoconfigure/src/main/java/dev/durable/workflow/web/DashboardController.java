package dev.durable.workflow.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import org.jspecify.annotations.Nullable;

/**
 * The dashboard at {@code {base-path}/ui}: a page of plain ES modules and a style sheet,
 * served from this jar (no build step), with an overview, the runs with filters, one
 * run's detail and history timeline, the schedules and the batch operations. It calls the
 * generated REST endpoints, so the application's security applies to it as to them; the
 * page tells its scripts whether the caller may run operations, and hides the actions
 * when not (the server checks every request anyway).
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}")
public class DashboardController {

	/** The files of the dashboard beside the page: only these are served. */
	static final Set<String> ASSETS = Set.of("dashboard.css", "app.js", "api.js", "ui.js", "overview.js", "runs.js",
			"run.js", "timeline.js", "actions.js", "activities.js", "schedules.js", "batches.js", "builds.js",
			"topics.js");

	private static final String FOLDER = "dashboard/";

	private final String page;

	private final WebAccess access;

	private final Map<String, Asset> assets = new ConcurrentHashMap<>();

	public DashboardController(WebAccess access) {
		this.access = access;
		// the base path is configuration, not user input; escaped for an HTML attribute
		// anyway
		this.page = read("index.html").replace("__BASE_PATH__", htmlAttribute(access.basePath()));
	}

	@GetMapping(path = { "/ui", "/ui/" }, produces = MediaType.TEXT_HTML_VALUE)
	ResponseEntity<String> dashboard(HttpServletRequest request) {
		String config = "{\"basePath\":" + jsonString(this.access.basePath()) + ",\"readOnly\":"
				+ this.access.isReadOnly() + ",\"actions\":" + this.access.allowsOperations(request) + "}";
		// per caller: never kept by a shared cache
		return ResponseEntity.ok()
			.cacheControl(CacheControl.noCache().cachePrivate())
			.contentType(MediaType.TEXT_HTML)
			.body(this.page.replace("__CONFIG__", config));
	}

	@GetMapping("/ui/{file:[a-z]+\\.(?:js|css)}")
	ResponseEntity<String> asset(@PathVariable String file,
			@RequestHeader(name = "If-None-Match", required = false) @Nullable String ifNoneMatch) {
		if (!ASSETS.contains(file)) {
			return ResponseEntity.notFound().build();
		}
		Asset asset = this.assets.computeIfAbsent(file, Asset::load);
		// the same for every caller; revalidated so that an upgraded jar is seen at once
		ResponseEntity.BodyBuilder response = ResponseEntity.status(HttpStatus.OK)
			.cacheControl(CacheControl.noCache())
			.eTag(asset.etag());
		if (asset.etag().equals(ifNoneMatch)) {
			return ResponseEntity.status(HttpStatus.NOT_MODIFIED)
				.cacheControl(CacheControl.noCache())
				.eTag(asset.etag())
				.build();
		}
		return response.contentType(asset.type()).body(asset.text());
	}

	/** A file of the dashboard, with its type and a tag of its content. */
	private record Asset(String text, MediaType type, String etag) {

		static Asset load(String file) {
			String text = read(file);
			MediaType type = file.endsWith(".css") ? new MediaType("text", "css", StandardCharsets.UTF_8)
					: new MediaType("text", "javascript", StandardCharsets.UTF_8);
			try {
				byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
				return new Asset(text, type, "\"" + HexFormat.of().formatHex(digest, 0, 12) + "\"");
			}
			catch (NoSuchAlgorithmException ex) {
				throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
			}
		}

	}

	private static String read(String file) {
		try (InputStream in = DashboardController.class.getResourceAsStream(FOLDER + file)) {
			if (in == null) {
				throw new IllegalStateException("The dashboard file " + file + " is missing from the jar");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("The dashboard file " + file + " cannot be read", ex);
		}
	}

	private static String htmlAttribute(String value) {
		return value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
	}

	/** A JSON string that is also safe inside an HTML script element. */
	static String jsonString(String value) {
		StringBuilder json = new StringBuilder("\"");
		for (char c : value.toCharArray()) {
			switch (c) {
				case '"' -> json.append("\\\"");
				case '\\' -> json.append("\\\\");
				case '<' -> json.append("\\u003c");
				case '>' -> json.append("\\u003e");
				case '&' -> json.append("\\u0026");
				default -> {
					if (c < 0x20) {
						json.append(String.format("\\u%04x", (int) c));
					}
					else {
						json.append(c);
					}
				}
			}
		}
		return json.append('"').toString();
	}

}
