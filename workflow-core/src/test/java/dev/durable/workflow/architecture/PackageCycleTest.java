package dev.durable.workflow.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The engine's internal packages form layers, not a knot: no package of
 * {@code dev.durable.workflow.internal} depends on another that depends back on it. The
 * public API packages sit above them; their calls into the runtime (the static
 * {@code Workflows} API, {@code Promise}, the wiring in {@code WorkflowEngine}) are the
 * way in.
 */
class PackageCycleTest {

	private static final JavaClasses ENGINE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.durable.workflow");

	@Test
	void theInternalPackagesHaveNoCycle() {
		slices().matching("dev.durable.workflow.internal.(*)..").should().beFreeOfCycles().check(ENGINE);
	}

}
