package io.sluice.connect;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The plugin's packages depend one way (docs/design.md "Module layout"): no package of {@code
 * io.sluice.connect} reaches itself through others. Checked on the compiled main classes, so a
 * dependency counts however it is written (import, fully qualified name, method signature).
 */
class PackageCyclesTest {
  /**
   * Every package is a slice of its own, {@code io.sluice.connect} itself included (which {@code
   * io.sluice.connect.(**)} would leave out).
   */
  private static final ArchRule NO_CYCLES =
      slices().matching("(io.sluice.connect..)").should().beFreeOfCycles();

  @Test
  void thePluginsPackagesFormNoCycle() {
    JavaClasses plugin =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.sluice.connect");
    NO_CYCLES.check(plugin);
  }

  @Test
  void twoPackagesUsingEachOtherFailTheRule() {
    JavaClasses cycle = new ClassFileImporter().importPackages("io.sluice.connect.testing.cycle");
    assertThatThrownBy(() -> NO_CYCLES.check(cycle))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Cycle detected")
        .hasMessageContaining("io.sluice.connect.testing.cycle.a")
        .hasMessageContaining("io.sluice.connect.testing.cycle.b");
  }
}
