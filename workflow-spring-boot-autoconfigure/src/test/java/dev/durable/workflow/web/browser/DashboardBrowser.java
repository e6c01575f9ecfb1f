package dev.durable.workflow.web.browser;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.stream.Stream;

import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a headless Chromium driven through the system's chromedriver (Debian's
 * {@code chromium} and {@code chromium-driver}; never a browser or driver downloaded by
 * Selenium Manager), with waits for what the page shows and screenshots kept under
 * {@code target/dashboard-screenshots}.
 */
final class DashboardBrowser implements AutoCloseable {

	static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");

	private static final int WIDTH = 1400;

	private final ChromeDriver driver;

	private final String baseUrl;

	private final WebDriverWait wait;

	private DashboardBrowser(ChromeDriver driver, String baseUrl) {
		this.driver = driver;
		this.baseUrl = baseUrl;
		this.wait = new WebDriverWait(driver, Duration.ofSeconds(30), Duration.ofMillis(100));
	}

	/** The Chromium binary and its driver, when both are installed. */
	static Optional<File[]> installed() {
		File browser = Stream.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium")
			.map(File::new)
			.filter(File::canExecute)
			.findFirst()
			.orElse(null);
		File driver = Stream.of("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
			.map(File::new)
			.filter(File::canExecute)
			.findFirst()
			.orElse(null);
		return (browser != null && driver != null) ? Optional.of(new File[] { browser, driver }) : Optional.empty();
	}

	static DashboardBrowser open(File[] chromium, String baseUrl) {
		ChromeOptions options = new ChromeOptions();
		options.setBinary(chromium[0]);
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
				"--hide-scrollbars", "--window-size=" + WIDTH + ",1000", "--lang=en-US");
		// what the page's scripts log as errors, read back by browserErrors()
		options.setCapability("goog:loggingPrefs", Map.of("browser", "SEVERE"));
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromium[1])
			.usingAnyFreePort()
			.build();
		return new DashboardBrowser(new ChromeDriver(service, options), baseUrl);
	}

	/** Opens a route of the dashboard, e.g. {@code "/runs?type=shipment"}. */
	void go(String route) {
		this.driver.get(this.baseUrl + "/durable/ui#" + route);
	}

	/**
	 * Runs a script that calls its callback (the last argument) and answers what it
	 * passed.
	 */
	Object async(String script) {
		return this.driver.executeAsyncScript(script);
	}

	/**
	 * The errors the page logged since the last call (a failed script, a failed request).
	 */
	List<String> browserErrors() {
		return this.driver.manage()
			.logs()
			.get(LogType.BROWSER)
			.getAll()
			.stream()
			.filter((entry) -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
			.map(LogEntry::getMessage)
			.toList();
	}

	String hash() {
		return (String) this.driver.executeScript("return location.hash");
	}

	WebElement await(String css) {
		return this.wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
	}

	/** Waits until the element's text contains the text, and answers the element. */
	WebElement awaitText(String css, String text) {
		this.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(css), text));
		return this.driver.findElement(By.cssSelector(css));
	}

	void awaitGone(String css) {
		this.wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector(css)));
	}

	List<WebElement> all(String css) {
		return this.driver.findElements(By.cssSelector(css));
	}

	String text(String css) {
		return await(css).getText();
	}

	/**
	 * Clicks the element the selector names when it is clickable. The run page draws its
	 * body again every few seconds and after an action, so the element found may be
	 * replaced before the click reaches it: the click then goes to the element that
	 * replaced it.
	 */
	void click(String css) {
		this.wait.ignoring(StaleElementReferenceException.class).until((driver) -> {
			WebElement element = ExpectedConditions.elementToBeClickable(By.cssSelector(css)).apply(driver);
			if (element == null) {
				return false;
			}
			element.click();
			return true;
		});
	}

	/**
	 * Clicks a button that opens the confirmation dialog, and waits for the dialog. A
	 * click whose button a redraw replaced between the press and the release reaches no
	 * handler: when the dialog is not open and the clicked button has left the page, the
	 * button now in the page is clicked. A button still in the page is not clicked twice
	 * (some open the dialog after a read).
	 */
	void openDialog(String css) {
		WebElement[] clicked = new WebElement[1];
		this.wait.ignoring(StaleElementReferenceException.class).until((driver) -> {
			if (!driver.findElements(By.id("confirm-dialog")).isEmpty()) {
				return true;
			}
			if (clicked[0] != null && !detached(clicked[0])) {
				return false;
			}
			WebElement button = ExpectedConditions.elementToBeClickable(By.cssSelector(css)).apply(driver);
			if (button != null) {
				clicked[0] = button;
				button.click();
			}
			return false;
		});
	}

	private static boolean detached(WebElement element) {
		try {
			element.isEnabled();
			return false;
		}
		catch (StaleElementReferenceException ex) {
			return true;
		}
	}

	void clickLink(String text) {
		this.wait.until(ExpectedConditions.elementToBeClickable(By.linkText(text))).click();
	}

	void type(String css, String text) {
		WebElement field = await(css);
		field.clear();
		field.sendKeys(text);
	}

	/**
	 * Sets an input's value as a script would (date and time inputs read keys by locale).
	 */
	void setValue(String css, String value) {
		this.driver.executeScript("const e = document.querySelector(arguments[0]); e.value = arguments[1];"
				+ " e.dispatchEvent(new Event('input', {bubbles: true}))", css, value);
	}

	void select(String css, String visibleText) {
		new Select(await(css)).selectByVisibleText(visibleText);
	}

	/**
	 * Waits until a select offers an option (the types are read after the page shows).
	 */
	void awaitOption(String css, String visibleText) {
		this.wait.until((driver) -> new Select(driver.findElement(By.cssSelector(css))).getOptions()
			.stream()
			.anyMatch((option) -> option.getText().equals(visibleText)));
	}

	/** Confirms the open dialog, after filling its fields (id, value pairs). */
	void confirm(String... fields) {
		await("#confirm-dialog");
		for (int i = 0; i + 1 < fields.length; i += 2) {
			type(fields[i], fields[i + 1]);
		}
		click("#dialog-confirm");
		awaitGone("#confirm-dialog");
	}

	/**
	 * A screenshot of the whole page (beyond the window, through Chromium's DevTools
	 * protocol), saved as {@code target/dashboard-screenshots/<name>.png}; the notices of
	 * past actions are cleared first.
	 */
	@SuppressWarnings("unchecked")
	Path screenshot(String name) {
		try {
			Files.createDirectories(SCREENSHOTS);
			this.driver.executeScript("document.getElementById('toasts').replaceChildren()");
			Map<String, Object> metrics = this.driver.executeCdpCommand("Page.getLayoutMetrics", Map.of());
			Map<String, Object> size = (Map<String, Object>) metrics.get("cssContentSize");
			double height = Math.min(((Number) size.get("height")).doubleValue(), 6000);
			Map<String, Object> shot = this.driver.executeCdpCommand("Page.captureScreenshot",
					Map.of("format", "png", "captureBeyondViewport", true, "clip",
							Map.of("x", 0, "y", 0, "width", WIDTH, "height", height, "scale", 1)));
			Path target = SCREENSHOTS.resolve(name + ".png");
			Files.write(target, Base64.getDecoder().decode((String) shot.get("data")));
			return target;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() {
		this.driver.quit();
	}

}
