package io.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.embedded.EmbeddedKafka;
import io.sluice.schema.server.DevSchemaRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;

/**
 * The plugin zip (compose's Connect image unpacks it onto plugin.path) holds the plugins and their
 * runtime dependencies, and no class of the dev schema registry nor of the deployment helpers
 * (module embedded), which are for the embedded stacks and tests only. An IT because it reads the
 * zip of this build, which exists from the package phase on ({@code sluice.plugin.zip}, set in the
 * pom).
 */
class PluginZipIT {
  private static final Path ZIP = Path.of(System.getProperty("sluice.plugin.zip", "unset"));

  /** The dev registry's package (its module holds no other), wherever its classes are built. */
  private static final String DEV_REGISTRY_PACKAGE = DevSchemaRegistry.class.getPackageName();

  /** Module embedded's root package (the deployment helpers are under it). */
  private static final String EMBEDDED_PACKAGE = EmbeddedKafka.class.getPackageName();

  /**
   * The deployment helpers once in this module's package {@code io.sluice.connect}, now in module
   * embedded ({@code io.sluice.embedded.connect}): connector configs, the Iceberg control topic and
   * the worker properties are no plugin code.
   */
  private static final List<String> DEPLOYMENT_HELPERS =
      List.of("ConnectorConfigs", "IcebergControlTopic", "SinkWorkerProperties");

  @Test
  void thePluginZipHoldsTheSchemaModuleButNoDevRegistryClass() throws IOException {
    assertThat(ZIP).as("the plugin zip; build connect-plugins to package first").isRegularFile();
    List<String> classes = classesIn(ZIP);

    assertThat(classes)
        .as("classes of %s", ZIP)
        .anyMatch(c -> c.endsWith("!io/sluice/connect/upsert/UpsertSinkConnector.class"))
        .anyMatch(c -> c.endsWith("!io/sluice/schema/wire/WireFormat.class"));
    assertThat(classes.stream().filter(PluginZipIT::ofTheDevRegistry))
        .as("dev registry classes in %s", ZIP)
        .isEmpty();
  }

  @Test
  void thePluginZipHoldsNoDeploymentHelper() throws IOException {
    assertThat(ZIP).as("the plugin zip; build connect-plugins to package first").isRegularFile();
    List<String> classes = classesIn(ZIP);

    assertThat(classes).as("classes of %s", ZIP).isNotEmpty();
    assertThat(classes.stream().filter(PluginZipIT::aDeploymentHelper))
        .as("deployment helpers (module embedded's, or of their old names) in %s", ZIP)
        .isEmpty();
  }

  private static boolean ofTheDevRegistry(String jarAndClass) {
    return DEV_REGISTRY_PACKAGE.equals(packageOf(jarAndClass));
  }

  /** A class of module embedded, or one of the helpers' old names (nested classes included). */
  private static boolean aDeploymentHelper(String jarAndClass) {
    String packageName = packageOf(jarAndClass);
    if (packageName.equals(EMBEDDED_PACKAGE) || packageName.startsWith(EMBEDDED_PACKAGE + ".")) {
      return true;
    }
    String entry = jarAndClass.substring(jarAndClass.indexOf('!') + 1);
    String simpleName = entry.substring(entry.lastIndexOf('/') + 1, entry.length() - 6);
    String outer =
        simpleName.contains("$") ? simpleName.substring(0, simpleName.indexOf('$')) : simpleName;
    return packageName.equals("io.sluice.connect") && DEPLOYMENT_HELPERS.contains(outer);
  }

  private static String packageOf(String jarAndClass) {
    String entry = jarAndClass.substring(jarAndClass.indexOf('!') + 1);
    String packageName = entry.contains("/") ? entry.substring(0, entry.lastIndexOf('/')) : "";
    return packageName.replace('/', '.');
  }

  /** Every class in the zip and in the jars it holds, as {@code jar!path} (or just the path). */
  private static List<String> classesIn(Path zip) throws IOException {
    List<String> classes = new ArrayList<>();
    try (ZipFile file = new ZipFile(zip.toFile())) {
      for (ZipEntry entry : Collections.list(file.entries())) {
        if (entry.getName().endsWith(".class")) {
          classes.add(entry.getName());
        } else if (entry.getName().endsWith(".jar")) {
          try (InputStream in = file.getInputStream(entry);
              ZipInputStream jar = new ZipInputStream(in)) {
            for (ZipEntry inner = jar.getNextEntry(); inner != null; inner = jar.getNextEntry()) {
              if (inner.getName().endsWith(".class")) {
                classes.add(entry.getName() + "!" + inner.getName());
              }
            }
          }
        }
      }
    }
    return classes;
  }
}
