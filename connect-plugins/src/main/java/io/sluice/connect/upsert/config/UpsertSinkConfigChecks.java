package io.sluice.connect.upsert.config;

import static io.sluice.connect.upsert.config.UpsertSinkConfig.CATALOG_IMPL_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.CATALOG_PREFIX;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.CATALOG_TYPE_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.CLEAN_TOPIC_SUFFIX_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.DLQ_TOPIC_SUFFIX_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.ERRORS_SINK_PREFIX;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.ERRORS_SINK_TOLERANCE_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.FLAT_OP_FIELD_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.HADOOP_PREFIX;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.INPUT_FORMAT_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.KAFKA_PREFIX;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.KEY_INDEX_MAX_BYTES_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.KEY_INDEX_SPILL_DIR_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.KEY_INDEX_SPILL_MAX_BYTES_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.PRIMARY_KEY_FIELDS_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.TABLE_NAME_FORMAT_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.TABLE_PARTITION_BY_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.TABLE_TOPIC_REGEX_CONFIG;

import io.sluice.contract.TopicNames;
import io.sluice.contract.TopicSuffixException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;

/**
 * What {@link UpsertSinkConfig#validate} adds to the per-key checks: cross-key checks attached to
 * the offending key, and an error for every key nobody would read.
 */
final class UpsertSinkConfigChecks {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9]*)}");

  private static final List<String> FRAMEWORK_PREFIXES =
      List.of(
          "key.converter.",
          "value.converter.",
          "header.converter.",
          "transforms.",
          "predicates.",
          "errors.",
          "consumer.override.",
          "producer.override.",
          "admin.override.");

  /** Framework keys Connect passes to every connector ({@code task.class}: to every task). */
  private static final Set<String> FRAMEWORK_KEYS =
      Set.of(
          "name",
          "connector.class",
          "task.class",
          "connector.plugin.version",
          "tasks.max",
          "tasks.max.enforce",
          "topics",
          "topics.regex",
          "key.converter",
          "value.converter",
          "header.converter",
          "transforms",
          "predicates",
          "config.action.reload");

  private static void crossKeyChecks(Map<String, String> props, Map<String, ConfigValue> values) {
    boolean hasType = !isBlank(props.get(CATALOG_TYPE_CONFIG));
    boolean hasImpl = !isBlank(props.get(CATALOG_IMPL_CONFIG));
    if (hasType == hasImpl) {
      String message =
          hasType
              ? "set only one of iceberg.catalog.type and iceberg.catalog.catalog-impl"
              : "the Iceberg catalog is not configured: set iceberg.catalog.type (or"
                  + " iceberg.catalog.catalog-impl) and its iceberg.catalog.* properties";
      values.get(CATALOG_TYPE_CONFIG).addErrorMessage(message);
      values.get(CATALOG_IMPL_CONFIG).addErrorMessage(message);
    }

    Object format = values.get(INPUT_FORMAT_CONFIG).value();
    if (props.containsKey(FLAT_OP_FIELD_CONFIG) && !InputFormat.FLAT.configValue().equals(format)) {
      values
          .get(FLAT_OP_FIELD_CONFIG)
          .addErrorMessage(
              "flat.op.field only applies to input.format=flat (input.format is "
                  + format
                  + "); remove it");
    }

    String regex = (String) values.get(TABLE_TOPIC_REGEX_CONFIG).value();
    String nameFormat = (String) values.get(TABLE_NAME_FORMAT_CONFIG).value();
    Set<String> groups = namedGroups(regex);
    Matcher m = PLACEHOLDER.matcher(nameFormat);
    while (m.find()) {
      String name = m.group(1);
      if (!name.equals("topic") && !groups.contains(name)) {
        values
            .get(TABLE_NAME_FORMAT_CONFIG)
            .addErrorMessage(
                "placeholder {"
                    + name
                    + "} is neither {topic} nor a named group of table.topic.regex "
                    + groups);
      }
    }

    if (ErrorTolerance.ALL.configValue().equals(values.get(ERRORS_SINK_TOLERANCE_CONFIG).value())
        && isBlank(props.get(KAFKA_BOOTSTRAP_SERVERS_CONFIG))) {
      values
          .get(KAFKA_BOOTSTRAP_SERVERS_CONFIG)
          .addErrorMessage(
              "errors.sink.tolerance=all quarantines records to Kafka: set "
                  + KAFKA_BOOTSTRAP_SERVERS_CONFIG
                  + " (the cluster of the input and DLQ topics)");
    }

    try {
      TopicNames.of(
          (String) values.get(CLEAN_TOPIC_SUFFIX_CONFIG).value(),
          (String) values.get(DLQ_TOPIC_SUFFIX_CONFIG).value());
    } catch (TopicSuffixException e) {
      // Only the two keys are the sink's: a clash with the repairs suffix is the DLQ suffix's.
      boolean own = values.containsKey(e.key());
      values
          .get(own ? e.key() : DLQ_TOPIC_SUFFIX_CONFIG)
          .addErrorMessage(own ? e.reason() : e.getMessage());
    }

    if ((Long) values.get(KEY_INDEX_MAX_BYTES_CONFIG).value() > 0
        && (Long) values.get(KEY_INDEX_SPILL_MAX_BYTES_CONFIG).value() > 0) {
      String problem =
          spillDirProblem(
              UpsertSinkConfig.keyIndexSpillDir(
                  (String) values.get(KEY_INDEX_SPILL_DIR_CONFIG).value()));
      if (problem != null) {
        values.get(KEY_INDEX_SPILL_DIR_CONFIG).addErrorMessage(problem);
      }
    }

    offsetsHorizonCheck(values);

    @SuppressWarnings("unchecked")
    List<String> keyFields = (List<String>) values.get(PRIMARY_KEY_FIELDS_CONFIG).value();
    List<PartitionTerm> terms =
        PartitionTerm.parseAll((String) values.get(TABLE_PARTITION_BY_CONFIG).value());
    if (!keyFields.isEmpty()) {
      String outside =
          terms.stream()
              .filter(t -> !keyFields.contains(t.column()))
              .map(PartitionTerm::text)
              .collect(Collectors.joining(", "));
      if (!outside.isEmpty()) {
        values
            .get(TABLE_PARTITION_BY_CONFIG)
            .addErrorMessage(
                "partition terms must be on primary-key fields (equality deletes are"
                    + " partition-scoped, so an update could leave the old row in another"
                    + " partition); "
                    + outside
                    + " not on primary.key.fields "
                    + keyFields
                    + ": partition by key fields only, or drop the term");
      }
    }
  }

  /**
   * A held partition is recorded again only every idle-commit interval, so a horizon not a few of
   * them long could expire the offsets of a partition a task still holds.
   */
  private static void offsetsHorizonCheck(Map<String, ConfigValue> values) {
    if (!Boolean.TRUE.equals(values.get(MaintenanceConfig.ENABLED_CONFIG).value())) {
      return;
    }
    long horizon = (Long) values.get(MaintenanceConfig.SNAPSHOTS_OFFSETS_HORIZON_MS_CONFIG).value();
    long idle = (Long) values.get(MaintenanceConfig.IDLE_COMMIT_INTERVAL_MS_CONFIG).value();
    int intervals = MaintenanceConfig.OFFSETS_HORIZON_MIN_IDLE_INTERVALS;
    if (horizon / intervals < idle) {
      String message =
          MaintenanceConfig.SNAPSHOTS_OFFSETS_HORIZON_MS_CONFIG
              + " ("
              + horizon
              + ") must be at least "
              + intervals
              + " x "
              + MaintenanceConfig.IDLE_COMMIT_INTERVAL_MS_CONFIG
              + " ("
              + idle
              + "): a task records the offsets of a partition it holds again only every"
              + " idle-commit interval, so a shorter horizon could expire them while it holds it;"
              + " raise the horizon or lower the interval";
      values.get(MaintenanceConfig.SNAPSHOTS_OFFSETS_HORIZON_MS_CONFIG).addErrorMessage(message);
      values.get(MaintenanceConfig.IDLE_COMMIT_INTERVAL_MS_CONFIG).addErrorMessage(message);
    }
  }

  /** Why {@code key} is refused, or null when it is known. */
  static String unknownKeyProblem(ConfigDef def, String key) {
    if (def.configKeys().containsKey(key)) {
      return null;
    }
    if (key.startsWith(ERRORS_SINK_PREFIX)) {
      // The framework owns errors.*, but errors.sink.* is this sink's: a typo would be ignored.
      return "unknown configuration key '"
          + key
          + "': the upsert sink's "
          + ERRORS_SINK_PREFIX
          + "* keys are those of docs/configuration.md#upsert-sink-configuration";
    }
    if (FRAMEWORK_KEYS.contains(key)
        || key.startsWith(CATALOG_PREFIX)
        || key.startsWith(HADOOP_PREFIX)
        || key.startsWith(KAFKA_PREFIX)
        || FRAMEWORK_PREFIXES.stream().anyMatch(key::startsWith)) {
      return null;
    }
    if (key.endsWith("upsert-mode-enabled") || key.endsWith("cdc-field")) {
      return "'"
          + key
          + "' is not supported: this sink always upserts by primary key (Debezium op or"
          + " flat.op.field); remove the key rather than rely on it";
    }
    if (key.endsWith("id-columns")) {
      return "'" + key + "' is not supported: set " + PRIMARY_KEY_FIELDS_CONFIG + " instead";
    }
    return "unknown configuration key '"
        + key
        + "' for the upsert sink: it would be ignored, so it is refused (keys: the table in"
        + " docs/configuration.md#upsert-sink-configuration, Connect's framework keys,"
        + " iceberg.catalog.*, iceberg.hadoop.*,"
        + " kafka.*)";
  }

  /**
   * Why the key index cannot spill to {@code dir}, or null when it can: the directory is made if
   * missing, and a file is written there and deleted, as a spilling index would.
   */
  private static String spillDirProblem(Path dir) {
    try {
      Files.createDirectories(dir);
      Files.delete(Files.createTempFile(dir, "key-index-", ".check"));
      return null;
    } catch (IOException | SecurityException e) {
      return "the key index cannot spill to "
          + dir
          + " ("
          + e
          + "): set "
          + KEY_INDEX_SPILL_DIR_CONFIG
          + " to a writable directory, or "
          + KEY_INDEX_SPILL_MAX_BYTES_CONFIG
          + "=0 to never spill";
    }
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }

  private static Set<String> namedGroups(String regex) {
    Matcher m = Pattern.compile("\\(\\?<([a-zA-Z][a-zA-Z0-9]*)>").matcher(regex);
    Set<String> names = new HashSet<>();
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  private UpsertSinkConfigChecks() {}

  static Config validate(ConfigDef def, Map<String, String> props) {
    Map<String, ConfigValue> values = new LinkedHashMap<>();
    for (ConfigValue value : def.validate(props)) {
      values.put(value.name(), value);
    }
    if (values.values().stream().allMatch(v -> v.errorMessages().isEmpty())) {
      crossKeyChecks(props, values);
    }
    for (Map.Entry<String, String> entry : props.entrySet()) {
      String problem = unknownKeyProblem(def, entry.getKey());
      if (problem != null) {
        ConfigValue value = new ConfigValue(entry.getKey());
        value.value(entry.getValue());
        value.addErrorMessage(problem);
        values.put(entry.getKey(), value);
      }
    }
    return new Config(new ArrayList<>(values.values()));
  }
}
