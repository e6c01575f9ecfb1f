package dev.durable.workflow.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The dashboard at {@code {base-path}/ui}: one page, served from this jar, that shows the queues
 * (refreshed every few seconds), lists and filters runs and shows one run's status, pending
 * activities and history, with query, signal, cancel and terminate (the last three hidden in
 * read-only mode). It calls the generated REST endpoints,
 * so the application's security applies to it as to them.
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}")
public class DashboardController {

	private final String page;

	private final WebAccess access;

	public DashboardController(WebAccess access) {
		this.access = access;
		try (InputStream in = DashboardController.class.getResourceAsStream("dashboard.html")) {
			String template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			// the base path is configuration, not user input; escaped for a JavaScript string anyway
			this.page = template.replace("__BASE_PATH__", access.basePath().replace("\\", "\\\\").replace("\"", "\\\""))
				.replace("__READ_ONLY__", String.valueOf(access.isReadOnly()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("The dashboard page is missing from the jar", ex);
		}
	}

	@GetMapping(path = { "/ui", "/ui/" }, produces = MediaType.TEXT_HTML_VALUE)
	ResponseEntity<String> dashboard(HttpServletRequest request) {
		String page = this.page.replace("__ACTIONS__", String.valueOf(this.access.allowsOperations(request)));
		// per caller: never kept by a shared cache
		return ResponseEntity.ok()
			.cacheControl(CacheControl.noCache().cachePrivate())
			.contentType(MediaType.TEXT_HTML)
			.body(page);
	}

}
