package dev.durable.workflow.architecture;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public API is split by who reads it, and each role package depends only on the
 * roles beneath it:
 * <ol>
 * <li>{@code failure} and {@code payload}: values every other role shares (a failure
 * carries encoded details, a converter throws a payload failure, so these two know each
 * other);</li>
 * <li>the workflow code's API ({@code dev.durable.workflow}) and the activities' API
 * ({@code activity});</li>
 * <li>the client ({@code client}, with {@code client.schedule} and
 * {@code client.batch});</li>
 * <li>the node's configuration ({@code engine}) and the test kit's seams
 * ({@code testsupport}), which may use every role and the internals.</li>
 * </ol>
 * Below the top layer, a role reaches the engine's internals only in its static entry
 * points ({@code Workflows}, {@code Promise.allOf}, {@code ActivityContext.current()},
 * ...).
 */
class ApiRoleBoundaryTest {

	private static final String ROOT = "dev.durable.workflow";

	private static final JavaClasses ENGINE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages(ROOT);

	/** The classes below the top layer that may reach the internals, and why. */
	private static final Set<String> ENTRY_POINTS = Set.of(
			// the static API of workflow code, on the current run's context
			"dev.durable.workflow.Workflows",
			// Promise.allOf/anyOf, through the combinators the engine provides
			"dev.durable.workflow.Promise",
			// the type name a method reference names, from its @Workflow class
			"dev.durable.workflow.WorkflowMethodReference",
			// ActivityContext.current(), through the provider the engine registers
			"dev.durable.workflow.activity.ActivityContext",
			// the current transactional activity's transaction, as the engine bound it
			"dev.durable.workflow.activity.ActivityTransaction");

	@Test
	void failuresAndPayloadsDependOnNoOtherRole() {
		for (String role : List.of("failure", "payload")) {
			noClasses().that()
				.resideInAPackage(ROOT + "." + role)
				.should()
				.dependOnClassesThat()
				.resideInAnyPackage(ROOT, ROOT + ".activity", ROOT + ".client..", ROOT + ".engine",
						ROOT + ".testsupport", ROOT + ".internal..")
				.check(ENGINE);
		}
	}

	@Test
	void workflowCodeAndActivitiesDependOnNeitherTheClientNorTheNode() {
		noClasses().that()
			.resideInAnyPackage(ROOT, ROOT + ".activity")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(ROOT + ".client..", ROOT + ".engine", ROOT + ".testsupport")
			.check(ENGINE);
	}

	@Test
	void theClientDependsOnNeitherTheNodeNorTheTestKit() {
		noClasses().that()
			.resideInAPackage(ROOT + ".client..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(ROOT + ".engine", ROOT + ".testsupport", ROOT + ".activity")
			.check(ENGINE);
	}

	@Test
	void belowTheNodeOnlyTheEntryPointsReachTheInternals() {
		noClasses().that()
			.resideInAnyPackage(ROOT, ROOT + ".activity", ROOT + ".failure", ROOT + ".payload", ROOT + ".client..")
			.and(DescribedPredicate.describe("not an entry point",
					(JavaClass c) -> !ENTRY_POINTS.contains(outermost(c).getName())))
			.should()
			.dependOnClassesThat()
			.resideInAPackage(ROOT + ".internal..")
			.check(ENGINE);
	}

	@Test
	void noTwoPublicTypesShareASimpleName() {
		Map<String, List<String>> bySimpleName = ENGINE.stream()
			.filter((c) -> c.getModifiers().contains(JavaModifier.PUBLIC) && c.isTopLevelClass())
			.filter((c) -> !c.getPackageName().startsWith(ROOT + ".internal"))
			.collect(Collectors.groupingBy(JavaClass::getSimpleName, TreeMap::new,
					Collectors.mapping(JavaClass::getName, Collectors.toList())));
		assertThat(bySimpleName).as("public API types").hasSizeGreaterThan(100);
		assertThat(bySimpleName.values().stream().filter((names) -> names.size() > 1).toList())
			.as("public types that share a simple name")
			.isEmpty();
	}

	@Test
	void everyPublicTypeLivesInARolePackage() {
		Set<String> roles = Set.of(ROOT, ROOT + ".activity", ROOT + ".failure", ROOT + ".payload", ROOT + ".client",
				ROOT + ".client.schedule", ROOT + ".client.batch", ROOT + ".engine", ROOT + ".testsupport");
		assertThat(ENGINE.stream()
			.filter((c) -> c.getModifiers().contains(JavaModifier.PUBLIC) && c.isTopLevelClass())
			.map(JavaClass::getPackageName)
			.filter((p) -> !p.startsWith(ROOT + ".internal"))
			.filter((p) -> !roles.contains(p))
			.distinct()
			.toList()).as("public packages that are no role").isEmpty();
	}

	private static JavaClass outermost(JavaClass type) {
		JavaClass current = type;
		while (current.getEnclosingClass().isPresent()) {
			current = current.getEnclosingClass().get();
		}
		return current;
	}

}
