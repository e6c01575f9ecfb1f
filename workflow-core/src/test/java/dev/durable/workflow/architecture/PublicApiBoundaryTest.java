package dev.durable.workflow.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The public API reaches the engine's internals only where it must: the client package
 * not at all, the root package only in its entry points (the static workflow API, the
 * engine's wiring and its read models). {@code Promise.allOf} and
 * {@code ActivityContext.current()} reach the engine through interfaces it implements,
 * found with {@code ServiceLoader}.
 */
class PublicApiBoundaryTest {

	private static final JavaClasses ENGINE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.durable.workflow");

	/** The root package's ways into the runtime; every other public type is plain API. */
	private static final java.util.Set<String> ENTRY_POINTS = java.util.Set.of("Workflows", "WorkflowEngine",
			"EngineAssembly", "EngineParts", "EngineStatsReader", "RegisteredWorkflowTypes", "WorkflowTypeInfo",
			// the current transactional activity's transaction, as the engine bound it
			"ActivityTransaction");

	@Test
	void theClientPackageUsesNoInternalType() {
		noClasses().that()
			.resideInAPackage("dev.durable.workflow.client..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.durable.workflow.internal..")
			.check(ENGINE);
	}

	@Test
	void theRootPackageUsesInternalTypesOnlyInItsEntryPoints() {
		noClasses().that()
			.resideInAPackage("dev.durable.workflow")
			.and(DescribedPredicate.describe("not an entry point",
					(JavaClass c) -> !ENTRY_POINTS.contains(outermost(c))))
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.durable.workflow.internal..")
			.check(ENGINE);
	}

	private static String outermost(JavaClass type) {
		JavaClass current = type;
		while (current.getEnclosingClass().isPresent()) {
			current = current.getEnclosingClass().get();
		}
		return current.getSimpleName();
	}

}
