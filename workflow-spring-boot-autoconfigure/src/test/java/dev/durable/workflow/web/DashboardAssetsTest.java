package dev.durable.workflow.web;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.test.web.servlet.MvcResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The dashboard's page and files as the application serves them from the jar: the page
 * names its scripts under the base path and tells them whether the caller may run
 * operations; each file of the dashboard is served with its type and a tag that lets a
 * browser revalidate it; nothing else is served from the folder, and every module a
 * script imports is one that is served.
 */
class DashboardAssetsTest extends RestApiTestSupport {

	private static final Pattern IMPORT = Pattern.compile("from \"\\./([a-z]+\\.js)\"");

	@Test
	void thePageLoadsItsModulesFromTheBasePathAndCarriesTheCallersPermissions() throws Exception {
		this.mvc.perform(get("/durable/ui"))
			.andExpect(status().isOk())
			.andExpect(header().string("Cache-Control", containsString("private")))
			.andExpect(content().string(containsString("<script type=\"module\" src=\"/durable/ui/app.js\">")))
			.andExpect(content().string(containsString("href=\"/durable/ui/dashboard.css\"")))
			.andExpect(content()
				.string(containsString("{\"basePath\":\"/durable\",\"readOnly\":false,\"actions\":true}")));
	}

	@Test
	void everyFileIsServedWithItsTypeAndATagToRevalidate() throws Exception {
		for (String file : DashboardController.ASSETS) {
			MvcResult result = this.mvc.perform(get("/durable/ui/" + file))
				.andExpect(status().isOk())
				.andExpect(header().string("Content-Type",
						containsString(file.endsWith(".css") ? "text/css" : "text/javascript")))
				.andExpect(header().string("Cache-Control", containsString("no-cache")))
				.andReturn();
			String etag = result.getResponse().getHeader("ETag");
			assertThat(etag).as(file).isNotBlank();
			assertThat(result.getResponse().getContentAsString()).isNotBlank();
			this.mvc.perform(get("/durable/ui/" + file).header("If-None-Match", etag))
				.andExpect(status().isNotModified());
		}
	}

	@Test
	void onlyTheDashboardsFilesAreServed() throws Exception {
		this.mvc.perform(get("/durable/ui/index.js")).andExpect(status().isNotFound());
		this.mvc.perform(get("/durable/ui/index.html")).andExpect(status().isNotFound());
		this.mvc.perform(get("/durable/ui/DashboardController.class")).andExpect(status().isNotFound());
		this.mvc.perform(get("/durable/ui/..%2Fdashboard.css")).andExpect(status().isNotFound());
	}

	@Test
	void everyFileOfTheFolderIsServedAndEveryImportedModuleIsOne() throws IOException, URISyntaxException {
		Path folder = Path.of(DashboardController.class.getResource("dashboard").toURI());
		List<String> files = new ArrayList<>();
		try (Stream<Path> listing = Files.list(folder)) {
			listing.map((path) -> path.getFileName().toString())
				.filter((name) -> !name.equals("index.html"))
				.forEach(files::add);
		}
		assertThat(files).containsExactlyInAnyOrderElementsOf(DashboardController.ASSETS);
		for (String file : files) {
			Matcher imports = IMPORT.matcher(Files.readString(folder.resolve(file)));
			while (imports.find()) {
				assertThat(DashboardController.ASSETS).as("imported by " + file).contains(imports.group(1));
			}
		}
	}

}
