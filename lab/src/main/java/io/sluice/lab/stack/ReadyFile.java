package io.sluice.lab.stack;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ready file of {@code sluice up}: one JSON object naming every endpoint of the running stack.
 * It is the only writer of that file, so tools and scripts can rely on its shape. A reader never
 * sees a half-written file: the JSON goes to a temporary file in the same directory first, which is
 * then moved over the target.
 */
public final class ReadyFile {
  // The keys the tools read are defined once, in the tools' reader.
  public static final String BOOTSTRAP_SERVERS = io.sluice.tools.cli.ReadyFile.BOOTSTRAP_SERVERS;
  public static final String SCHEMA_REGISTRY_URL =
      io.sluice.tools.cli.ReadyFile.SCHEMA_REGISTRY_URL;
  public static final String ROUTER_METRICS_URL = "router_metrics_url";
  public static final String JDBC_URL = "jdbc_url";
  public static final String JDBC_USER = "jdbc_user";
  public static final String JDBC_PASSWORD = "jdbc_password";
  public static final String CAPTURE_ADMIN_URL = "capture_admin_url";
  public static final String CONNECT_URL = "connect_url";
  public static final String UPSERT_SINK_METRICS_URL = "upsert_sink_metrics_url";

  /** The monitor's Prometheus endpoint: DLQ backlog and age, repairs/replays, group lag. */
  public static final String MONITOR_METRICS_URL = "monitor_metrics_url";

  /** Base URL of the Prometheus scraping the stack ({@code sluice up --prometheus} only). */
  public static final String PROMETHEUS_URL = "prometheus_url";

  /**
   * The Iceberg catalog as one JSON object of properties exactly as {@code
   * CatalogUtil.buildIcebergCatalog} takes them, plus its {@code name}.
   */
  public static final String ICEBERG_CATALOG = io.sluice.tools.cli.ReadyFile.ICEBERG_CATALOG;

  public static final String WAREHOUSE = "warehouse";

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Path path;

  public ReadyFile(Path path) {
    this.path = path.toAbsolutePath();
  }

  public Path path() {
    return path;
  }

  /** Writes {@code entries} (in their iteration order) as one JSON object, atomically. */
  public void write(Map<String, ?> entries) {
    try {
      Path dir = path.getParent();
      Files.createDirectories(dir);
      Path temp = Files.createTempFile(dir, "." + path.getFileName(), ".tmp");
      try {
        JSON.writeValue(temp.toFile(), new LinkedHashMap<>(entries));
        move(temp);
      } finally {
        Files.deleteIfExists(temp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write ready file " + path, e);
    }
  }

  /** The entries of the file; fails when it does not exist or is not one JSON object. */
  public Map<String, Object> read() {
    try {
      return JSON.readValue(path.toFile(), new TypeReference<LinkedHashMap<String, Object>>() {});
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read ready file " + path, e);
    }
  }

  /** Removes the file: the endpoints it names are gone. */
  public void delete() {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete ready file " + path, e);
    }
  }

  private void move(Path temp) throws IOException {
    try {
      Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
