package io.sluice.stack;

import io.sluice.embedded.FreePort;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;

/**
 * The loopback ports of the embedded stack, kept in {@code <data dir>/stack.properties} so a
 * restart with the same data dir answers on the same addresses (clients and bookmarks keep
 * working).
 */
public record StackPorts(
    int kafka,
    int controller,
    int registry,
    int metrics,
    int mariadb,
    int captureAdmin,
    int connect,
    int prometheus,
    int upsertSinkMetrics,
    int monitorMetrics,
    int control) {
  public static final String FILE_NAME = "stack.properties";

  private static final String KAFKA = "kafka.port";
  private static final String CONTROLLER = "kafka.controller.port";
  private static final String REGISTRY = "schema.registry.port";
  private static final String METRICS = "router.metrics.port";
  private static final String MARIADB = "mariadb.port";
  private static final String CAPTURE_ADMIN = "capture.admin.port";
  private static final String CONNECT = "connect.rest.port";
  private static final String PROMETHEUS = "prometheus.port";
  // Used by the process stack, whose sink and monitor run in processes of their own: their ports
  // must be known before they start.
  private static final String UPSERT_SINK_METRICS = "upsert.sink.metrics.port";
  private static final String MONITOR_METRICS = "monitor.metrics.port";
  private static final String CONTROL = "control.port";

  /** Ports asked for on the command line; 0 means "no preference". */
  public record Requested(
      int kafka,
      int registry,
      int metrics,
      int mariadb,
      int captureAdmin,
      int connect,
      int prometheus) {
    public static final Requested NONE = new Requested(0, 0, 0, 0, 0, 0, 0);
  }

  /**
   * The ports for a start in {@code dataDir}: a requested port wins, then the one stored by the
   * previous start, then a free one. The result is stored for the next start.
   */
  public static StackPorts resolve(Path dataDir, Requested requested) {
    Properties stored = load(dataDir.resolve(FILE_NAME));
    // In the constructor's order. Prometheus's is kept whether or not it runs, so its URL survives
    // restarts either way.
    String[] keys = {
      KAFKA,
      CONTROLLER,
      REGISTRY,
      METRICS,
      MARIADB,
      CAPTURE_ADMIN,
      CONNECT,
      PROMETHEUS,
      UPSERT_SINK_METRICS,
      MONITOR_METRICS,
      CONTROL
    };
    int[] wanted = {
      requested.kafka(),
      0,
      requested.registry(),
      requested.metrics(),
      requested.mariadb(),
      requested.captureAdmin(),
      requested.connect(),
      requested.prometheus(),
      0,
      0,
      0
    };
    int[] ports = new int[keys.length];
    Set<Integer> taken = new HashSet<>();
    for (int i = 0; i < keys.length; i++) {
      ports[i] = known(wanted[i], stored, keys[i]);
      if (ports[i] != 0) {
        taken.add(ports[i]);
      }
    }
    // Free ports last, none twice: the kernel may hand out a port it just gave for another key.
    for (int i = 0; i < keys.length; i++) {
      if (ports[i] == 0) {
        ports[i] = FreePort.pickOtherThan(taken);
        taken.add(ports[i]);
      }
    }
    StackPorts result =
        new StackPorts(
            ports[0], ports[1], ports[2], ports[3], ports[4], ports[5], ports[6], ports[7],
            ports[8], ports[9], ports[10]);
    result.store(dataDir);
    return result;
  }

  /** The ports stored in {@code dataDir}, failing when none were. */
  public static StackPorts read(Path dataDir) {
    Path file = dataDir.resolve(FILE_NAME);
    if (!Files.exists(file)) {
      throw new IllegalStateException("no " + FILE_NAME + " in " + dataDir);
    }
    Properties p = load(file);
    return new StackPorts(
        stored(p, KAFKA, file),
        stored(p, CONTROLLER, file),
        stored(p, REGISTRY, file),
        stored(p, METRICS, file),
        stored(p, MARIADB, file),
        stored(p, CAPTURE_ADMIN, file),
        stored(p, CONNECT, file),
        stored(p, PROMETHEUS, file),
        stored(p, UPSERT_SINK_METRICS, file),
        stored(p, MONITOR_METRICS, file),
        stored(p, CONTROL, file));
  }

  /**
   * A further component instance's port (a second router's metrics, a second Connect worker's REST
   * API), under {@code key} in {@code stack.properties}: the stored one, else a free one that no
   * other key of the file holds, stored for the next start.
   */
  public static synchronized int instance(Path dataDir, String key) {
    Path file = dataDir.resolve(FILE_NAME);
    Properties p = load(file);
    String value = p.getProperty(key);
    if (value != null) {
      return parse(value, key);
    }
    Set<Integer> taken = new HashSet<>();
    p.stringPropertyNames().forEach(k -> taken.add(parse(p.getProperty(k), k)));
    int port = FreePort.pickOtherThan(taken);
    p.setProperty(key, String.valueOf(port));
    write(dataDir, p);
    return port;
  }

  void store(Path dataDir) {
    // Keeps the instance ports ({@link #instance}) a previous start stored.
    Properties p = load(dataDir.resolve(FILE_NAME));
    p.setProperty(KAFKA, String.valueOf(kafka));
    p.setProperty(CONTROLLER, String.valueOf(controller));
    p.setProperty(REGISTRY, String.valueOf(registry));
    p.setProperty(METRICS, String.valueOf(metrics));
    p.setProperty(MARIADB, String.valueOf(mariadb));
    p.setProperty(CAPTURE_ADMIN, String.valueOf(captureAdmin));
    p.setProperty(CONNECT, String.valueOf(connect));
    p.setProperty(PROMETHEUS, String.valueOf(prometheus));
    p.setProperty(UPSERT_SINK_METRICS, String.valueOf(upsertSinkMetrics));
    p.setProperty(MONITOR_METRICS, String.valueOf(monitorMetrics));
    p.setProperty(CONTROL, String.valueOf(control));
    write(dataDir, p);
  }

  private static void write(Path dataDir, Properties p) {
    Path file = dataDir.resolve(FILE_NAME);
    try {
      Files.createDirectories(dataDir);
      Path temp = Files.createTempFile(dataDir, FILE_NAME, ".tmp");
      try (Writer out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
        p.store(out, "Ports of the Sluice embedded stack; edit or delete to change them");
      }
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** The requested port, else the stored one, else 0. */
  private static int known(int requested, Properties stored, String key) {
    if (requested != 0) {
      return requested;
    }
    String value = stored.getProperty(key);
    return value == null ? 0 : parse(value, key);
  }

  private static int stored(Properties p, String key, Path file) {
    String value = p.getProperty(key);
    if (value == null) {
      throw new IllegalStateException(file + " has no " + key);
    }
    return parse(value, key);
  }

  private static int parse(String value, String key) {
    try {
      int port = Integer.parseInt(value.trim());
      if (port < 1 || port > 65535) {
        throw new NumberFormatException("out of range");
      }
      return port;
    } catch (NumberFormatException e) {
      throw new IllegalStateException(
          FILE_NAME + ": " + key + "=" + value + " is not a TCP port (1-65535)", e);
    }
  }

  private static Properties load(Path file) {
    Properties p = new Properties();
    if (Files.exists(file)) {
      try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        p.load(in);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    return p;
  }
}
