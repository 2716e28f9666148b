package io.sluice.router;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The router's packages depend one way (docs/design.md "Module layout"): no package of {@code
 * io.sluice.router} reaches itself through others, so validate-ahead ({@code prevalidate}), the
 * validation stages, retry and metrics stay below the topology. Checked on the compiled main
 * classes; connect-plugins' PackageCyclesTest shows the same rule failing on a cycle.
 */
class PackageCyclesTest {
  @Test
  void theRoutersPackagesFormNoCycle() {
    JavaClasses router =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.sluice.router");
    slices().matching("(io.sluice.router..)").should().beFreeOfCycles().check(router);
  }
}
