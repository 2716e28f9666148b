package io.sluice.scenarios;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a report says about where it ran: machine, versions of the stack, the git commit. */
public final class RunEnvironment {
  private static final Pattern JAR_VERSION = Pattern.compile("-(\\d[^/]*?)\\.jar$");

  private RunEnvironment() {}

  /** The report's {@code environment}: cpu, ram, os, kernel, java, load average. */
  public static Environment environment() {
    Long total = null;
    Long free = null;
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      total = os.getTotalMemorySize();
      free = os.getFreeMemorySize();
    }
    return new Environment(
        new Environment.Cpu(
            Runtime.getRuntime().availableProcessors(), cpuModel(), System.getProperty("os.arch")),
        new Environment.Ram(total, free, Runtime.getRuntime().maxMemory()),
        System.getProperty("os.name") + " " + osRelease(),
        System.getProperty("os.version"),
        System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.runtime.version")
            + " ("
            + System.getProperty("java.vendor")
            + ")",
        loadAverage());
  }

  /** The report's {@code stack_versions}: libraries from their jars, MariaDB from the server. */
  public static StackVersions stackVersions(Connection source) {
    return new StackVersions(
        org.apache.kafka.common.utils.AppInfoParser.getVersion(),
        jarVersion(org.apache.kafka.streams.KafkaStreams.class),
        jarVersion(org.apache.kafka.connect.runtime.Worker.class),
        jarVersion(io.debezium.engine.DebeziumEngine.class),
        org.apache.iceberg.IcebergBuild.version(),
        jarVersion(org.apache.avro.Schema.class),
        serverVersion(source),
        System.getProperty("java.version"));
  }

  /** {@code git rev-parse HEAD} in the current directory, or "unknown". */
  public static String gitSha() {
    try {
      Process git =
          new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
      String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!git.waitFor(10, TimeUnit.SECONDS)) {
        git.destroyForcibly();
        return "unknown";
      }
      return git.exitValue() == 0 && out.matches("[0-9a-f]{40}") ? out : "unknown";
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  /** The version in the name of the jar {@code type} was loaded from, else its manifest's. */
  static String jarVersion(Class<?> type) {
    String version =
        type.getPackage() == null ? null : type.getPackage().getImplementationVersion();
    try {
      var source = type.getProtectionDomain().getCodeSource();
      if (source != null) {
        Matcher m = JAR_VERSION.matcher(source.getLocation().getPath());
        if (m.find()) {
          return m.group(1);
        }
      }
    } catch (SecurityException e) {
      // fall back to the manifest
    }
    return version == null ? "unknown" : version;
  }

  private static String serverVersion(Connection source) {
    try (Statement s = source.createStatement();
        ResultSet rs = s.executeQuery("SELECT VERSION()")) {
      return rs.next() ? rs.getString(1) : "unknown";
    } catch (SQLException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return "unknown";
  }

  private static String osRelease() {
    try {
      for (String line : Files.readAllLines(Path.of("/etc/os-release"))) {
        if (line.startsWith("PRETTY_NAME=")) {
          return "(" + line.substring("PRETTY_NAME=".length()).replace("\"", "") + ")";
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return "";
  }

  private static Environment.LoadAverage loadAverage() {
    try {
      List<String> fields = List.of(Files.readString(Path.of("/proc/loadavg")).trim().split(" "));
      return new Environment.ProcLoadAverage(
          Double.parseDouble(fields.get(0)),
          Double.parseDouble(fields.get(1)),
          Double.parseDouble(fields.get(2)));
    } catch (IOException | RuntimeException e) {
      return new Environment.JvmLoadAverage(
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }
}
