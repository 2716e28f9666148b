package io.sluice.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the process stack's Connect worker runs on, laid out by the build as compose's Connect image
 * lays it out (cli/pom.xml): the plugin directory for {@code plugin.path}, Kafka's Connect runtime
 * alone as the worker's classpath, the JDK-only launcher every child JVM starts with, and compose's
 * worker properties. {@code scripts/sluice} passes their locations as system properties.
 *
 * @param pluginsDir {@code plugin.path}: {@code sluice-connect-plugins/} and {@code
 *     iceberg-kafka-connect/}
 * @param workerClasspath the worker's classpath: the launcher and Kafka's Connect runtime
 * @param workerProperties compose's {@code connect-distributed.properties}
 */
record ConnectRuntime(Path pluginsDir, String workerClasspath, Path workerProperties) {
  static final String PLUGINS_DIR = "sluice.connect.plugins.dir";
  static final String WORKER_CLASSPATH = "sluice.connect.worker.classpath";
  static final String LAUNCHER = "sluice.connect.launcher";
  static final String HOME = "sluice.home";

  /** compose's worker properties, under {@code sluice.home}. */
  static final Path COMPOSE_WORKER_PROPERTIES =
      Path.of("compose", "connect", "connect-distributed.properties");

  /**
   * The runtime the system properties name.
   *
   * @throws StackStartException naming the property that is missing or the path that is not there
   */
  static ConnectRuntime fromSystemProperties() {
    Path plugins = existing(PLUGINS_DIR, true);
    Path classpathFile = existing(WORKER_CLASSPATH, false);
    Path launcher = existing(LAUNCHER, true);
    Path properties = Path.of(required(HOME)).resolve(COMPOSE_WORKER_PROPERTIES);
    if (!Files.isRegularFile(properties)) {
      throw new StackStartException(
          "no " + properties + ": " + HOME + " must name the Sluice checkout");
    }
    try {
      String classpath = launcher + ":" + Files.readString(classpathFile).strip();
      return new ConnectRuntime(plugins, classpath, properties);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + classpathFile, e);
    }
  }

  private static Path existing(String property, boolean directory) {
    Path path = Path.of(required(property));
    if (directory ? !Files.isDirectory(path) : !Files.isRegularFile(path)) {
      throw new StackStartException(
          property
              + "="
              + path
              + " is not "
              + (directory ? "a directory" : "a file")
              + "; `mvn package -pl cli -am` lays it out (scripts/sluice does)");
    }
    return path;
  }

  private static String required(String property) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      throw new StackStartException(
          "the process stack needs -D"
              + property
              + " (the Connect worker's plugin directory, classpath and launcher, and the"
              + " checkout): run it through scripts/sluice, which builds and passes them");
    }
    return value;
  }
}
