package io.sluice.connect.upsert.config;

import io.sluice.contract.TopicNames;
import io.sluice.observe.config.ConfigTable;
import io.sluice.observe.config.Validators;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * Configuration of the upsert sink, declared once. {@link #validate(Map)} is what the connector's
 * {@code validate()} answers: per-key checks, cross-key checks attached to the offending key, and
 * an error for every key that is neither declared here, nor a Connect framework key, nor under
 * {@value #CATALOG_PREFIX} / {@value #HADOOP_PREFIX}: an ignored key (such as another sink's {@code
 * upsert-mode-enabled}) would silently change nothing.
 */
public final class UpsertSinkConfig extends AbstractConfig {
  /** Keys under this prefix (stripped) are the Iceberg catalog's properties. */
  public static final String CATALOG_PREFIX = "iceberg.catalog.";

  /** Keys under this prefix (stripped) go into the Hadoop {@code Configuration} of the catalog. */
  public static final String HADOOP_PREFIX = "iceberg.hadoop.";

  /** Keys under this prefix (stripped) configure the quarantine's Kafka producer and consumer. */
  public static final String KAFKA_PREFIX = "kafka.";

  /** The sink's own error keys: Connect's {@code errors.*} names, for the sink's write. */
  public static final String ERRORS_SINK_PREFIX = "errors.sink.";

  private static final String GROUP_INPUT = "Input";
  private static final String GROUP_TABLES = "Tables";
  private static final String GROUP_CATALOG = "Iceberg catalog";
  private static final String GROUP_COMMIT = "Commit";
  private static final String GROUP_METRICS = "Metrics";
  private static final String GROUP_ERRORS = "Errors";

  public static final String INPUT_FORMAT_CONFIG = "input.format";
  public static final String INPUT_FORMAT_DOC =
      "`debezium`: values are Debezium envelopes; c, r, u upsert the `after` row, d deletes the key"
          + " (from the record key, else from the `before` image), tombstones are skipped. `flat`:"
          + " values are rows; `flat.op.field` says which are deletes.";

  public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";
  public static final String SCHEMA_REGISTRY_URL_DOC =
      "The direct path: the schema registry of the Confluent-wire Avro the topics carry. With the"
          + " connector's `key.converter` and `value.converter` set to"
          + " `org.apache.kafka.connect.converters.ByteArrayConverter`, the sink decodes the bytes"
          + " itself with the registry's writer schemas (cached by id) straight into table rows,"
          + " without Connect data per record; a record whose bytes do not decode is quarantined"
          + " with them (SINK_CONVERSION_FAILED) and an unreachable registry is retried. Empty:"
          + " the connector's converters decode (e.g. Sluice's RegistryAvroConverter), and a"
          + " record that arrives as bytes fails the task naming this key.";

  public static final String FLAT_OP_FIELD_CONFIG = "flat.op.field";
  public static final String FLAT_OP_FIELD_DEFAULT = "__op";
  public static final String FLAT_OP_FIELD_DOC =
      "With input.format=flat: the row field holding the operation (`d` or `delete` deletes the"
          + " key; `c`, `r`, `u`, `insert`, `update`, `upsert`, null or an absent field upsert). It"
          + " is not written as a column.";

  public static final String PRIMARY_KEY_FIELDS_CONFIG = "primary.key.fields";
  public static final String PRIMARY_KEY_FIELDS_DOC =
      "Primary-key columns, read from the row (`after`, or `before` for a delete). Empty: the"
          + " fields of the record key, which must then be a struct. They become the table's"
          + " identifier fields.";

  public static final String TABLE_TOPIC_REGEX_CONFIG = "table.topic.regex";
  public static final String TABLE_TOPIC_REGEX_DEFAULT =
      "^[^.]+\\.(?<db>[^.]+)\\.(?<table>[^.]+)(?:\\..+)?$";
  public static final String TABLE_TOPIC_REGEX_DOC =
      "Java regex matched against each topic; its named groups fill table.name.format. The default"
          + " reads `<prefix>.<db>.<table>` with any further suffix (such as `.clean`).";

  public static final String TABLE_NAME_FORMAT_CONFIG = "table.name.format";
  public static final String TABLE_NAME_FORMAT_DEFAULT = "{db}.{table}_current";
  public static final String TABLE_NAME_FORMAT_DOC =
      "Iceberg table of a topic, `namespace.table`: `{group}` is a named group of"
          + " table.topic.regex, `{topic}` the whole topic.";

  public static final String TABLE_AUTO_CREATE_CONFIG = "table.auto.create";
  public static final String TABLE_AUTO_CREATE_DOC =
      "Create a missing table (and its namespace) from the first record's schema, identifier"
          + " fields = primary key. When false a missing table fails the task.";

  public static final String TABLE_EVOLVE_SCHEMA_CONFIG = "table.evolve.schema";
  public static final String TABLE_EVOLVE_SCHEMA_DOC =
      "Add new columns and widen types (int to long, float to double, decimal precision) when"
          + " records bring them. When false such a record fails the task.";

  public static final String TABLE_FORMAT_VERSION_CONFIG = "table.format.version";
  public static final String TABLE_FORMAT_VERSION_DOC =
      "Iceberg format version of created tables: 2, or 3 (deletion vectors instead of position"
          + " delete files).";

  public static final String TABLE_PARTITION_BY_CONFIG = "table.partition.by";
  public static final String TABLE_PARTITION_BY_DOC =
      "Partition spec of created tables, terms on primary-key columns only (equality deletes are"
          + " partition-scoped): `col`, `bucket(col, N)`, `truncate(col, W)`. Empty: unpartitioned.";

  public static final String CATALOG_NAME_CONFIG = CATALOG_PREFIX + "name";
  public static final String CATALOG_NAME_DOC = "Name of the Iceberg catalog.";

  public static final String CATALOG_TYPE_CONFIG = CATALOG_PREFIX + "type";
  public static final String CATALOG_TYPE_DOC =
      "Iceberg catalog type (`jdbc`, `rest`, `hadoop`, ...); set this or catalog-impl. Every"
          + " other `iceberg.catalog.<key>` (uri, warehouse, jdbc.schema-version, io-impl, ...) is"
          + " passed to `CatalogUtil.buildIcebergCatalog`, and every `iceberg.hadoop.<key>` into"
          + " its Hadoop configuration (e.g. `iceberg.hadoop.fs.file.impl` ="
          + " `org.apache.hadoop.fs.RawLocalFileSystem` for a local warehouse without .crc"
          + " files).";

  public static final String CATALOG_IMPL_CONFIG = CATALOG_PREFIX + "catalog-impl";
  public static final String CATALOG_IMPL_DOC =
      "Class name of a custom Iceberg catalog; set this or iceberg.catalog.type.";

  public static final String COMMIT_INTERVAL_MS_CONFIG = "commit.interval.ms";
  public static final String COMMIT_INTERVAL_MS_DOC =
      "How often buffered records are written and committed: all records of one interval form"
          + " one batch, one RowDelta (one snapshot) per table. A commit runs on the task's commit"
          + " thread while the task reads the next batch; the next commit is due an interval after"
          + " the previous one started, or when it ends if it took longer. The task holds the"
          + " records of up to two intervals (the batch being committed and the next). The"
          + " worker's offset.flush.interval.ms should not exceed it.";

  public static final String KEY_INDEX_MAX_BYTES_CONFIG = "key-index.max-bytes";
  public static final String KEY_INDEX_MAX_BYTES_DOC =
      "Most heap bytes one table's key index may hold. The index says where each key's row is"
          + " (data file and position), so an update or delete of a key the table holds is"
          + " written as a delete by position (a deletion vector on format v3, a position delete"
          + " on v2) and no equality delete stays at rest. It is built from the table's key"
          + " columns on a task's first commit to the table, about 20-45 bytes per key for a key"
          + " of one integer column (docs/benchmarks.md). A larger index moves to memory-mapped"
          + " files (key-index.spill.max-bytes); a table whose index would pass both limits is"
          + " written with equality deletes, which the table maintenance converts; 0 indexes no"
          + " table.";

  public static final String KEY_INDEX_SPILL_MAX_BYTES_CONFIG = "key-index.spill.max-bytes";
  public static final String KEY_INDEX_SPILL_MAX_BYTES_DOC =
      "Most bytes of memory-mapped files one table's key index may hold once it is past"
          + " key-index.max-bytes: the growth that would pass the heap limit moves its slots and"
          + " keys to files in key-index.spill.dir, which the OS pages in and out, and the heap"
          + " keeps only small objects. A table whose index would pass this too is written with"
          + " equality deletes, which the table maintenance converts; 0 never spills (an index"
          + " past key-index.max-bytes is given up).";

  public static final String KEY_INDEX_SPILL_DIR_CONFIG = "key-index.spill.dir";
  public static final String KEY_INDEX_SPILL_DIR_DOC =
      "Directory of the key indexes' memory-mapped files (key-index.spill.max-bytes), created if"
          + " missing; it must be writable. Empty: `sluice-key-index` under the worker's"
          + " java.io.tmpdir. Each file is deleted as soon as it is mapped, so a crashed worker"
          + " leaves none behind, and its space is freed when the index outgrows or drops it. Put"
          + " it on a disk: on tmpfs the files stay in memory.";

  public static final String METRICS_HOST_CONFIG = "metrics.host";
  public static final String METRICS_HOST_DOC =
      "Address the sink's Prometheus endpoint (`GET /metrics`) binds to. All upsert sink tasks of"
          + " a worker share one endpoint, so they must agree on it.";

  public static final String METRICS_PORT_CONFIG = "metrics.port";
  public static final String METRICS_PORT_DOC =
      "Port of the sink's Prometheus endpoint, shared by all upsert sink tasks of the worker"
          + " (another port while it runs fails the task). -1: no endpoint, meters record nothing;"
          + " 0: the running endpoint, else a free port (logged; `SinkMetricsEndpoint.url()`).";

  public static final String ERRORS_SINK_TOLERANCE_CONFIG = ERRORS_SINK_PREFIX + "tolerance";
  public static final String ERRORS_SINK_TOLERANCE_DOC =
      "Connect's errors.tolerance, for the records the sink cannot write (a SINK_* code:"
          + " null key field, decimal out of range, a type the table cannot evolve to, any other"
          + " conversion failure of that one record). `none`: such a record fails the task. `all`:"
          + " it goes to its DLQ topic as a DLQ envelope v1 record, once per input (twice only if a"
          + " zombie task and its successor both wrote it), and the task goes"
          + " on. Connect's own errors.tolerance still governs converter and transform errors."
          + " Transient failures (catalog, storage, Kafka unreachable) are never quarantined.";

  public static final String ERRORS_SINK_DLQ_TOPIC_CONFIG =
      ERRORS_SINK_PREFIX + "deadletterqueue.topic.name";
  public static final String ERRORS_SINK_DLQ_TOPIC_DOC =
      "Connect's errors.deadletterqueue.topic.name, for the sink's quarantine. Empty: the"
          + " router's DLQ of each input topic, `<main><dlq.topic.suffix>` for"
          + " `<main><clean.topic.suffix>` (else `<topic><dlq.topic.suffix>`): `<main>.dlq` for"
          + " `<main>.clean` by default. The topic must exist.";

  public static final String CLEAN_TOPIC_SUFFIX_CONFIG = TopicNames.CLEAN_SUFFIX_CONFIG;
  public static final String CLEAN_TOPIC_SUFFIX_DOC =
      "The router's clean.topic.suffix, which must be the same: with errors.sink.tolerance=all"
          + " and no errors.sink.deadletterqueue.topic.name, a record of `<main><suffix>` is"
          + " quarantined to the router's DLQ of `<main>`.";

  public static final String DLQ_TOPIC_SUFFIX_CONFIG = TopicNames.DLQ_SUFFIX_CONFIG;
  public static final String DLQ_TOPIC_SUFFIX_DOC =
      "The router's dlq.topic.suffix, which must be the same: with errors.sink.tolerance=all and"
          + " no errors.sink.deadletterqueue.topic.name, a record of `<main><clean suffix>` is"
          + " quarantined to `<main><suffix>` (of any other topic: `<topic><suffix>`), where the"
          + " DLQ tools and the monitor find it. Neither suffix may end with the other or with"
          + " `.repairs`.";

  public static final String ERRORS_SINK_RETRY_TIMEOUT_CONFIG =
      ERRORS_SINK_PREFIX + "retry.timeout";
  public static final String ERRORS_SINK_RETRY_TIMEOUT_DOC =
      "Connect's errors.retry.timeout, for transient failures of a commit (catalog, storage,"
          + " Kafka): how long (ms) a failing commit is retried before the task fails. 0: no"
          + " retry; -1: forever. Records are never quarantined for such a failure.";

  public static final String ERRORS_SINK_RETRY_DELAY_MAX_MS_CONFIG =
      ERRORS_SINK_PREFIX + "retry.delay.max.ms";
  public static final String ERRORS_SINK_RETRY_DELAY_MAX_MS_DOC =
      "Connect's errors.retry.delay.max.ms: the longest wait between two commit attempts (the"
          + " wait doubles from 100 ms).";

  public static final String KAFKA_BOOTSTRAP_SERVERS_CONFIG = KAFKA_PREFIX + "bootstrap.servers";
  public static final String KAFKA_BOOTSTRAP_SERVERS_DOC =
      "With errors.sink.tolerance=all: the Kafka cluster of the input and DLQ topics. The task"
          + " reads a record it quarantines back by its coordinates (for its original bytes) and"
          + " writes the DLQ with an idempotent producer. Every other `kafka.<key>` (security"
          + " settings, ...) is passed to that producer and consumer.";

  /** Set by the connector for each task: the task's index. */
  public static final String TASK_ID_CONFIG = "sluice.task.id";

  private static final ConfigDef CONFIG_DEF = buildConfigDef();

  /**
   * Parses {@code props} after {@link #validate(Map)}.
   *
   * @throws ConfigException listing every offending key and why
   */
  public UpsertSinkConfig(Map<String, String> props) {
    super(CONFIG_DEF, props, false);
    List<String> errors =
        validate(props).configValues().stream()
            .filter(v -> !v.errorMessages().isEmpty())
            .map(v -> v.name() + ": " + String.join("; ", v.errorMessages()))
            .toList();
    if (!errors.isEmpty()) {
      throw new ConfigException("Invalid upsert sink configuration: " + String.join(" | ", errors));
    }
  }

  /** The generated table of these keys (docs/configuration.md). */
  public static ConfigTable docsTable() {
    return new ConfigTable("upsert-sink-config", "upsert sink configuration", configDef());
  }

  /** Every declared key with doc, default, validator, importance and group. */
  public static ConfigDef configDef() {
    return new ConfigDef(CONFIG_DEF);
  }

  /**
   * Validates {@code props} as the connector's {@code validate()} does: declared keys, cross-key
   * checks (attached to the offending key) and unknown keys.
   */
  public static Config validate(Map<String, String> props) {
    return UpsertSinkConfigChecks.validate(CONFIG_DEF, props);
  }

  public String connectorName() {
    return originalsStrings().getOrDefault("name", "upsert-sink");
  }

  public InputFormat inputFormat() {
    return InputFormat.of(getString(INPUT_FORMAT_CONFIG));
  }

  public String flatOpField() {
    return getString(FLAT_OP_FIELD_CONFIG);
  }

  /** Configured primary-key columns, empty when the record key gives them. */
  /** {@value #SCHEMA_REGISTRY_URL_CONFIG}; empty when the direct path is off. */
  public String schemaRegistryUrl() {
    return getString(SCHEMA_REGISTRY_URL_CONFIG).strip();
  }

  public List<String> primaryKeyFields() {
    return getList(PRIMARY_KEY_FIELDS_CONFIG);
  }

  public Pattern tableTopicRegex() {
    return Pattern.compile(getString(TABLE_TOPIC_REGEX_CONFIG));
  }

  public String tableNameFormat() {
    return getString(TABLE_NAME_FORMAT_CONFIG);
  }

  public boolean tableAutoCreate() {
    return getBoolean(TABLE_AUTO_CREATE_CONFIG);
  }

  public boolean tableEvolveSchema() {
    return getBoolean(TABLE_EVOLVE_SCHEMA_CONFIG);
  }

  public int tableFormatVersion() {
    return getInt(TABLE_FORMAT_VERSION_CONFIG);
  }

  public List<PartitionTerm> tablePartitionBy() {
    return PartitionTerm.parseAll(getString(TABLE_PARTITION_BY_CONFIG));
  }

  public long commitIntervalMs() {
    return getLong(COMMIT_INTERVAL_MS_CONFIG);
  }

  /** {@value #KEY_INDEX_MAX_BYTES_CONFIG}. */
  public long keyIndexMaxBytes() {
    return getLong(KEY_INDEX_MAX_BYTES_CONFIG);
  }

  /** {@value #KEY_INDEX_SPILL_MAX_BYTES_CONFIG}. */
  public long keyIndexSpillMaxBytes() {
    return getLong(KEY_INDEX_SPILL_MAX_BYTES_CONFIG);
  }

  /** {@value #KEY_INDEX_SPILL_DIR_CONFIG}, its default resolved. */
  public Path keyIndexSpillDir() {
    return keyIndexSpillDir(getString(KEY_INDEX_SPILL_DIR_CONFIG));
  }

  static Path keyIndexSpillDir(String configured) {
    return configured == null || configured.isBlank()
        ? Path.of(System.getProperty("java.io.tmpdir"), "sluice-key-index")
        : Path.of(configured);
  }

  /**
   * The deleted fraction at which a commit copies a data file instead of deleting from it ({@value
   * MaintenanceConfig#REWRITE_DELETED_FRACTION_CONFIG}); above 1 when maintenance is off.
   */
  public double commitCopyFraction() {
    return maintenanceEnabled() ? maintenance().rewriteDeletedFraction() : 2;
  }

  public String metricsHost() {
    return getString(METRICS_HOST_CONFIG);
  }

  /** The endpoint's port: -1 none, 0 any. */
  public int metricsPort() {
    return getInt(METRICS_PORT_CONFIG);
  }

  public int taskId() {
    return getInt(TASK_ID_CONFIG);
  }

  /** {@value MaintenanceConfig#ENABLED_CONFIG}. */
  public boolean maintenanceEnabled() {
    return getBoolean(MaintenanceConfig.ENABLED_CONFIG);
  }

  /**
   * {@value MaintenanceConfig#MERGE_MAX_BYTES_CONFIG}; 0 when maintenance is off: the tables are
   * then written only with equality deletes.
   */
  public long mergeMaxBytes() {
    return maintenanceEnabled() ? getLong(MaintenanceConfig.MERGE_MAX_BYTES_CONFIG) : 0;
  }

  /**
   * When a batch is merged at commit: {@link #mergeMaxBytes()} and {@value
   * MaintenanceConfig#MERGE_MAX_ROWS_PER_KEY_CONFIG}.
   */
  public MergeLimits mergeLimits() {
    return new MergeLimits(
        mergeMaxBytes(), getLong(MaintenanceConfig.MERGE_MAX_ROWS_PER_KEY_CONFIG));
  }

  /**
   * {@value MaintenanceConfig#IDLE_COMMIT_INTERVAL_MS_CONFIG}; 0 when maintenance is off (nothing
   * expires snapshots then).
   */
  public long idleCommitIntervalMs() {
    return maintenanceEnabled() ? getLong(MaintenanceConfig.IDLE_COMMIT_INTERVAL_MS_CONFIG) : 0;
  }

  /** The {@code maintenance.*} keys. */
  public MaintenanceSettings maintenance() {
    return MaintenanceConfig.settings(this);
  }

  public ErrorTolerance errorsSinkTolerance() {
    return ErrorTolerance.of(getString(ERRORS_SINK_TOLERANCE_CONFIG));
  }

  /** The configured DLQ topic, null for the router's naming. */
  public String errorsSinkDlqTopic() {
    String topic = getString(ERRORS_SINK_DLQ_TOPIC_CONFIG);
    return topic.isBlank() ? null : topic;
  }

  /**
   * The router's topic names, from {@value #CLEAN_TOPIC_SUFFIX_CONFIG} and {@value
   * #DLQ_TOPIC_SUFFIX_CONFIG}.
   */
  public TopicNames topicNames() {
    return TopicNames.of(getString(CLEAN_TOPIC_SUFFIX_CONFIG), getString(DLQ_TOPIC_SUFFIX_CONFIG));
  }

  /**
   * Whether the connector subscribes to a topic, by Connect's {@code topics} list or {@code
   * topics.regex} (both framework keys every task gets); every topic when neither is set.
   */
  public Predicate<String> subscribedTopics() {
    String list = originalsStrings().get("topics");
    String regex = originalsStrings().get("topics.regex");
    if (list != null && !list.isBlank()) {
      Set<String> topics = new HashSet<>();
      for (String topic : list.split(",")) {
        topics.add(topic.trim());
      }
      return topics::contains;
    }
    if (regex != null && !regex.isBlank()) {
      return Pattern.compile(regex).asMatchPredicate();
    }
    return topic -> true;
  }

  public long errorsSinkRetryTimeoutMs() {
    return getLong(ERRORS_SINK_RETRY_TIMEOUT_CONFIG);
  }

  public long errorsSinkRetryDelayMaxMs() {
    return getLong(ERRORS_SINK_RETRY_DELAY_MAX_MS_CONFIG);
  }

  /** Every {@code kafka.*} key with the prefix stripped: the quarantine's client settings. */
  public Map<String, Object> kafkaProperties() {
    return new HashMap<>(stripped(KAFKA_PREFIX));
  }

  public String catalogName() {
    return getString(CATALOG_NAME_CONFIG);
  }

  /** Every {@code iceberg.catalog.*} key with the prefix stripped (name, type, uri, ...). */
  public Map<String, String> catalogProperties() {
    return stripped(CATALOG_PREFIX);
  }

  /** Every {@code iceberg.hadoop.*} key with the prefix stripped. */
  public Map<String, String> hadoopProperties() {
    return stripped(HADOOP_PREFIX);
  }

  private Map<String, String> stripped(String prefix) {
    Map<String, String> out = new HashMap<>();
    originalsStrings()
        .forEach(
            (k, v) -> {
              if (k.startsWith(prefix)) {
                out.put(k.substring(prefix.length()), v);
              }
            });
    return out;
  }

  private static ConfigDef buildConfigDef() {
    ConfigDef def = new ConfigDef();
    int order = 0;
    def.define(
        INPUT_FORMAT_CONFIG,
        Type.STRING,
        InputFormat.DEBEZIUM.configValue(),
        ConfigDef.ValidString.in(
            InputFormat.DEBEZIUM.configValue(), InputFormat.FLAT.configValue()),
        Importance.HIGH,
        INPUT_FORMAT_DOC,
        GROUP_INPUT,
        ++order,
        Width.SHORT,
        "Input format");
    def.define(
        SCHEMA_REGISTRY_URL_CONFIG,
        Type.STRING,
        "",
        Importance.MEDIUM,
        SCHEMA_REGISTRY_URL_DOC,
        GROUP_INPUT,
        ++order,
        Width.LONG,
        "Schema registry (direct path)");
    def.define(
        FLAT_OP_FIELD_CONFIG,
        Type.STRING,
        FLAT_OP_FIELD_DEFAULT,
        new ConfigDef.NonEmptyString(),
        Importance.MEDIUM,
        FLAT_OP_FIELD_DOC,
        GROUP_INPUT,
        ++order,
        Width.SHORT,
        "Flat operation field");
    def.define(
        PRIMARY_KEY_FIELDS_CONFIG,
        Type.LIST,
        List.of(),
        SinkValidators.columnNames(),
        Importance.MEDIUM,
        PRIMARY_KEY_FIELDS_DOC,
        GROUP_INPUT,
        ++order,
        Width.MEDIUM,
        "Primary-key fields");

    order = 0;
    def.define(
        TABLE_TOPIC_REGEX_CONFIG,
        Type.STRING,
        TABLE_TOPIC_REGEX_DEFAULT,
        Validators.regex(),
        Importance.MEDIUM,
        TABLE_TOPIC_REGEX_DOC,
        GROUP_TABLES,
        ++order,
        Width.LONG,
        "Topic regex");
    def.define(
        TABLE_NAME_FORMAT_CONFIG,
        Type.STRING,
        TABLE_NAME_FORMAT_DEFAULT,
        new ConfigDef.NonEmptyString(),
        Importance.HIGH,
        TABLE_NAME_FORMAT_DOC,
        GROUP_TABLES,
        ++order,
        Width.MEDIUM,
        "Table name format");
    def.define(
        TABLE_AUTO_CREATE_CONFIG,
        Type.BOOLEAN,
        true,
        Importance.MEDIUM,
        TABLE_AUTO_CREATE_DOC,
        GROUP_TABLES,
        ++order,
        Width.SHORT,
        "Create tables");
    def.define(
        TABLE_EVOLVE_SCHEMA_CONFIG,
        Type.BOOLEAN,
        true,
        Importance.MEDIUM,
        TABLE_EVOLVE_SCHEMA_DOC,
        GROUP_TABLES,
        ++order,
        Width.SHORT,
        "Evolve schemas");
    def.define(
        TABLE_FORMAT_VERSION_CONFIG,
        Type.INT,
        2,
        Range.between(2, 3),
        Importance.LOW,
        TABLE_FORMAT_VERSION_DOC,
        GROUP_TABLES,
        ++order,
        Width.SHORT,
        "Format version");
    def.define(
        TABLE_PARTITION_BY_CONFIG,
        Type.STRING,
        "",
        SinkValidators.partitionTerms(),
        Importance.LOW,
        TABLE_PARTITION_BY_DOC,
        GROUP_TABLES,
        ++order,
        Width.MEDIUM,
        "Partition by");

    order = 0;
    def.define(
        CATALOG_NAME_CONFIG,
        Type.STRING,
        "sluice",
        new ConfigDef.NonEmptyString(),
        Importance.MEDIUM,
        CATALOG_NAME_DOC,
        GROUP_CATALOG,
        ++order,
        Width.SHORT,
        "Catalog name");
    def.define(
        CATALOG_TYPE_CONFIG,
        Type.STRING,
        null,
        Importance.HIGH,
        CATALOG_TYPE_DOC,
        GROUP_CATALOG,
        ++order,
        Width.SHORT,
        "Catalog type");
    def.define(
        CATALOG_IMPL_CONFIG,
        Type.STRING,
        null,
        Importance.LOW,
        CATALOG_IMPL_DOC,
        GROUP_CATALOG,
        ++order,
        Width.LONG,
        "Catalog class");

    def.define(
        COMMIT_INTERVAL_MS_CONFIG,
        Type.LONG,
        3_000L,
        Range.between(100L, 3_600_000L),
        Importance.MEDIUM,
        COMMIT_INTERVAL_MS_DOC,
        GROUP_COMMIT,
        1,
        Width.SHORT,
        "Commit interval (ms)");
    def.define(
        KEY_INDEX_MAX_BYTES_CONFIG,
        Type.LONG,
        512L * 1024 * 1024,
        Range.atLeast(0L),
        Importance.MEDIUM,
        KEY_INDEX_MAX_BYTES_DOC,
        GROUP_COMMIT,
        2,
        Width.SHORT,
        "Key index limit (bytes)");
    def.define(
        KEY_INDEX_SPILL_MAX_BYTES_CONFIG,
        Type.LONG,
        8L * 1024 * 1024 * 1024,
        Range.atLeast(0L),
        Importance.MEDIUM,
        KEY_INDEX_SPILL_MAX_BYTES_DOC,
        GROUP_COMMIT,
        3,
        Width.SHORT,
        "Key index spill limit (bytes)");
    def.define(
        KEY_INDEX_SPILL_DIR_CONFIG,
        Type.STRING,
        "",
        Importance.LOW,
        KEY_INDEX_SPILL_DIR_DOC,
        GROUP_COMMIT,
        4,
        Width.LONG,
        "Key index spill directory");

    order = 0;
    def.define(
        METRICS_HOST_CONFIG,
        Type.STRING,
        "127.0.0.1",
        new ConfigDef.NonEmptyString(),
        Importance.LOW,
        METRICS_HOST_DOC,
        GROUP_METRICS,
        ++order,
        Width.MEDIUM,
        "Metrics host");
    def.define(
        METRICS_PORT_CONFIG,
        Type.INT,
        -1,
        Range.between(-1, 65535),
        Importance.LOW,
        METRICS_PORT_DOC,
        GROUP_METRICS,
        ++order,
        Width.SHORT,
        "Metrics port");

    order = 0;
    def.define(
        ERRORS_SINK_TOLERANCE_CONFIG,
        Type.STRING,
        ErrorTolerance.NONE.configValue(),
        ConfigDef.ValidString.in(
            ErrorTolerance.NONE.configValue(), ErrorTolerance.ALL.configValue()),
        Importance.HIGH,
        ERRORS_SINK_TOLERANCE_DOC,
        GROUP_ERRORS,
        ++order,
        Width.SHORT,
        "Sink error tolerance");
    def.define(
        ERRORS_SINK_DLQ_TOPIC_CONFIG,
        Type.STRING,
        "",
        Importance.MEDIUM,
        ERRORS_SINK_DLQ_TOPIC_DOC,
        GROUP_ERRORS,
        ++order,
        Width.MEDIUM,
        "Sink DLQ topic");
    def.define(
        CLEAN_TOPIC_SUFFIX_CONFIG,
        Type.STRING,
        TopicNames.DEFAULT_CLEAN_SUFFIX,
        TopicNames.suffixValidator(),
        Importance.LOW,
        CLEAN_TOPIC_SUFFIX_DOC,
        GROUP_ERRORS,
        ++order,
        Width.SHORT,
        "Clean topic suffix");
    def.define(
        DLQ_TOPIC_SUFFIX_CONFIG,
        Type.STRING,
        TopicNames.DEFAULT_DLQ_SUFFIX,
        TopicNames.suffixValidator(),
        Importance.LOW,
        DLQ_TOPIC_SUFFIX_DOC,
        GROUP_ERRORS,
        ++order,
        Width.SHORT,
        "DLQ topic suffix");
    def.define(
        KAFKA_BOOTSTRAP_SERVERS_CONFIG,
        Type.STRING,
        "",
        Importance.MEDIUM,
        KAFKA_BOOTSTRAP_SERVERS_DOC,
        GROUP_ERRORS,
        ++order,
        Width.LONG,
        "Kafka bootstrap servers");
    def.define(
        ERRORS_SINK_RETRY_TIMEOUT_CONFIG,
        Type.LONG,
        60_000L,
        Range.atLeast(-1L),
        Importance.MEDIUM,
        ERRORS_SINK_RETRY_TIMEOUT_DOC,
        GROUP_ERRORS,
        ++order,
        Width.SHORT,
        "Commit retry timeout (ms)");
    def.define(
        ERRORS_SINK_RETRY_DELAY_MAX_MS_CONFIG,
        Type.LONG,
        10_000L,
        Range.atLeast(1L),
        Importance.LOW,
        ERRORS_SINK_RETRY_DELAY_MAX_MS_DOC,
        GROUP_ERRORS,
        ++order,
        Width.SHORT,
        "Commit retry delay max (ms)");

    MaintenanceConfig.define(def);

    def.defineInternal(
        TASK_ID_CONFIG,
        Type.INT,
        0,
        Range.atLeast(0),
        Importance.LOW,
        "Index of the task, set by the connector.");
    return def;
  }
}
