package io.sluice.contract;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
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
 * The ready file of {@code sluice up}: one JSON object naming every endpoint of the running stack
 * (see docs/design.md, "Ready file"). The stack writes it through this class and every tool reads
 * it through this class, so the keys are defined once. A reader never sees a half-written file: the
 * JSON goes to a temporary file in the same directory first, which is then moved over the target.
 *
 * <p>Its problems (no file, not a JSON object, a key missing or bad) are {@link
 * ReadyFileException}s saying what to pass or do instead; a command line turns them into usage
 * errors.
 */
public final class ReadyFile {
  public static final String BOOTSTRAP_SERVERS = "bootstrap_servers";
  public static final String SCHEMA_REGISTRY_URL = "schema_registry_url";
  public static final String ROUTER_METRICS_URL = "router_metrics_url";

  /**
   * The process stack only: the metrics URL of every router instance, the first one's ({@link
   * #ROUTER_METRICS_URL}) first.
   */
  public static final String ROUTER_METRICS_URLS = "router_metrics_urls";

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
  public static final String ICEBERG_CATALOG = "iceberg_catalog";

  public static final String WAREHOUSE = "warehouse";

  /**
   * Base URL of the supervisor's control API ({@code sluice up --processes} only): what {@code
   * sluice stack} calls to stop, SIGKILL and start a component.
   */
  public static final String CONTROL_URL = "control_url";

  /**
   * Every component of the process stack ({@code sluice up --processes} only), by name: its {@code
   * pid} (null while it is down), {@code state}, {@code log}, and the commands that {@code stop},
   * {@code kill} and {@code start} it. Rewritten whenever a component stops or starts.
   */
  public static final String COMPONENTS = "components";

  /**
   * The process stack only: how many instances of the scalable components run, {@code {"routers":
   * n, "connect_workers": n, "sink_tasks": n}} (the sinks' {@code tasks.max}).
   */
  public static final String SCALE = "scale";

  /**
   * The router settings {@code sluice up --router-config} put over the stack's own, as an object of
   * strings ({@code {}} when none).
   */
  public static final String ROUTER_CONFIG = "router_config";

  /**
   * The upsert sink settings {@code sluice up --sink-config} put over the stack's own, as an object
   * of strings ({@code {}} when none).
   */
  public static final String SINK_CONFIG = "sink_config";

  /**
   * The topic suffixes the stack's router runs with, {@code {"clean_suffix": ".clean",
   * "dlq_suffix": ".dlq", "repairs_suffix": ".repairs"}} ({@link #topics(TopicNames)}); a file
   * without it means the defaults ({@link #topicNames(JsonNode)}).
   */
  public static final String TOPICS = "topics";

  public static final String CLEAN_SUFFIX = "clean_suffix";
  public static final String DLQ_SUFFIX = "dlq_suffix";
  public static final String REPAIRS_SUFFIX = "repairs_suffix";

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Path path;
  private final Path given;

  /** The file at {@code path}. */
  public ReadyFile(Path path) {
    this.path = path.toAbsolutePath();
    this.given = path;
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

  /**
   * The file's JSON object; null when there is no file, or when it cannot be read and is not {@code
   * needed}.
   *
   * @throws ReadyFileException when the file is not a JSON object, or cannot be read and is needed
   */
  public JsonNode read(boolean needed) {
    if (!Files.exists(path)) {
      return null;
    }
    try {
      JsonNode root = new ObjectMapper().readTree(path.toFile());
      if (root == null || !root.isObject()) {
        throw new ReadyFileException("ready file " + path + " is not a JSON object");
      }
      return root;
    } catch (IOException e) {
      if (!needed) {
        return null;
      }
      throw new ReadyFileException("cannot read ready file " + path + ": " + e.getMessage());
    }
  }

  /**
   * The {@value #ICEBERG_CATALOG} object: catalog properties plus {@code name}.
   *
   * @throws ReadyFileException when the file is missing or names no catalog, saying how to get one
   */
  public Map<String, String> icebergCatalog() {
    if (!Files.exists(path)) {
      throw new ReadyFileException(
          "no ready file at "
              + path
              + "; start the stack with `scripts/sluice up --ready-file "
              + given
              + "` or give the catalog URI and warehouse");
    }
    JsonNode catalog = read(true).get(ICEBERG_CATALOG);
    if (catalog == null || !catalog.isObject()) {
      throw new ReadyFileException("ready file " + path + " has no " + ICEBERG_CATALOG + " object");
    }
    Map<String, String> properties = new LinkedHashMap<>();
    catalog
        .fields()
        .forEachRemaining(
            field -> {
              if (!field.getValue().isNull()) {
                properties.put(field.getKey(), field.getValue().asText());
              }
            });
    return properties;
  }

  /** The {@value #TOPICS} object of a stack whose router runs with {@code names}. */
  public static Map<String, String> topics(TopicNames names) {
    Map<String, String> topics = new LinkedHashMap<>();
    topics.put(CLEAN_SUFFIX, names.cleanSuffix());
    topics.put(DLQ_SUFFIX, names.dlqSuffix());
    topics.put(REPAIRS_SUFFIX, names.repairsSuffix());
    return topics;
  }

  /**
   * The topic names of {@code root} (this file's object, or null): its {@value #TOPICS} object, a
   * suffix it lacks (or a file without the object, or no file) being the default.
   *
   * @throws ReadyFileException naming the file, the field and the bad value
   */
  public TopicNames topicNames(JsonNode root) {
    JsonNode topics = root == null ? null : root.get(TOPICS);
    if (topics == null || topics.isNull()) {
      return TopicNames.DEFAULTS;
    }
    if (!topics.isObject()) {
      throw new ReadyFileException("ready file " + path + ": " + TOPICS + " is not a JSON object");
    }
    try {
      return TopicNames.of(
          suffix(topics, CLEAN_SUFFIX, TopicNames.DEFAULT_CLEAN_SUFFIX),
          suffix(topics, DLQ_SUFFIX, TopicNames.DEFAULT_DLQ_SUFFIX),
          suffix(topics, REPAIRS_SUFFIX, TopicNames.DEFAULT_REPAIRS_SUFFIX),
          new TopicNames.Keys(
              TOPICS + "." + CLEAN_SUFFIX,
              TOPICS + "." + DLQ_SUFFIX,
              TOPICS + "." + REPAIRS_SUFFIX));
    } catch (TopicSuffixException e) {
      throw new ReadyFileException("ready file " + path + ": " + e.getMessage());
    }
  }

  private static String suffix(JsonNode topics, String key, String fallback) {
    JsonNode value = topics.get(key);
    return value == null || value.isNull() ? fallback : value.asText();
  }

  /** Removes the file: the endpoints it names are gone. */
  public void delete() {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete ready file " + path, e);
    }
  }

  /** The text under {@code key}; null when {@code root} is null or the value is null or blank. */
  public static String text(JsonNode root, String key) {
    JsonNode value = root == null ? null : root.get(key);
    return value == null || value.isNull() || value.asText().isBlank() ? null : value.asText();
  }

  /** The error for an endpoint that neither {@code flag} nor the file's {@code key} gave. */
  public ReadyFileException missing(String flag, String key) {
    String where =
        Files.exists(path)
            ? "ready file " + path + " has no " + key
            : "there is no ready file at " + path;
    return new ReadyFileException(
        "no "
            + flag
            + " given and "
            + where
            + "; pass "
            + flag
            + ", or start the stack with `scripts/sluice up` (or point --ready-file at its file)");
  }

  private void move(Path temp) throws IOException {
    try {
      Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
