package io.sluice.embedded.connect;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Connector configurations of the lakehouse sinks for one topic, or for every topic a regex
 * matches, as the stack and the tests create them through the Connect REST API. The catalog is
 * given as the ready file's {@code iceberg_catalog} object: properties as {@code
 * CatalogUtil.buildIcebergCatalog} takes them, including {@code name}.
 *
 * <p>No config carries a connector client override ({@code consumer.override.*}): what the sinks
 * need of their consumers (read committed, a bounded metadata refresh) is the worker's ({@link
 * SinkWorkerProperties}), so the worker can refuse every override ({@code
 * connector.client.config.override.policy=None}).
 *
 * <p>This module does not depend on the plugins (their tests use it), so the plugin classes and
 * their configuration keys are named by string, exactly as a user writes them in connector JSON;
 * connect-plugins' {@code DeploymentHelperNamesTest} fails when one no longer names a plugin class
 * or a key of its ConfigDef.
 */
public final class ConnectorConfigs {
  /** Connector class of the Apache Iceberg sink (append-only; the changelog table). */
  public static final String ICEBERG_SINK_CONNECTOR =
      "org.apache.iceberg.connect.IcebergSinkConnector";

  /** Connector class of the Sluice upsert sink (the current-state table). */
  public static final String UPSERT_SINK_CONNECTOR = "io.sluice.connect.upsert.UpsertSinkConnector";

  /** The key and value converter of both sinks. */
  public static final String REGISTRY_AVRO_CONVERTER =
      "io.sluice.connect.converter.RegistryAvroConverter";

  /** The transform last in the changelog sink's chain. */
  public static final String CHANGELOG_GUARD = "io.sluice.connect.guard.ChangelogGuard";

  /** The changelog sink's transform alias of {@link #CHANGELOG_GUARD}. */
  public static final String GUARD = "guard";

  // Keys of the plugins' ConfigDefs: UpsertSinkConfig, ChangelogGuardConfig and
  // RegistryAvroConverterConfig.
  private static final String UPSERT_COMMIT_INTERVAL_MS = "commit.interval.ms";
  private static final String UPSERT_CATALOG_PREFIX = "iceberg.catalog.";
  private static final String UPSERT_ERRORS_SINK_TOLERANCE = "errors.sink.tolerance";
  private static final String UPSERT_KAFKA_BOOTSTRAP_SERVERS = "kafka.bootstrap.servers";
  private static final String GUARD_ROUTE_FIELD = "route.field";
  private static final String GUARD_SCHEMA_EVOLUTION = "schema.evolution";
  private static final String CONVERTER_REGISTRY_URL = "schema.registry.url";

  private static final String RAW_LOCAL_FS = "org.apache.hadoop.fs.RawLocalFileSystem";

  private ConnectorConfigs() {}

  /**
   * The Sluice upsert sink writing {@code <db>.<table>_current} from {@code topic}.
   *
   * @param commitIntervalMs the sink's commit interval
   */
  public static Map<String, String> upsertSink(
      String topic, String registryUrl, Map<String, String> icebergCatalog, long commitIntervalMs) {
    return upsertSink(Map.of("topics", topic), registryUrl, icebergCatalog, commitIntervalMs);
  }

  private static Map<String, String> upsertSink(
      Map<String, String> subscription,
      String registryUrl,
      Map<String, String> icebergCatalog,
      long commitIntervalMs) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", UPSERT_SINK_CONNECTOR);
    config.put("tasks.max", "1");
    config.putAll(subscription);
    converters(config, registryUrl);
    config.put(UPSERT_COMMIT_INTERVAL_MS, String.valueOf(commitIntervalMs));
    icebergCatalog.forEach((k, v) -> config.put(UPSERT_CATALOG_PREFIX + k, v));
    localWarehouse(config, icebergCatalog);
    return config;
  }

  /** Connect's converter that passes the record bytes through (the upsert sink's direct path). */
  public static final String BYTE_ARRAY_CONVERTER =
      "org.apache.kafka.connect.converters.ByteArrayConverter";

  /**
   * {@code upsertSinkConfig} (of {@link #upsertSink} or {@link #upsertSinkByRegex}) on the sink's
   * direct path: the worker passes the Confluent-wire bytes through ({@link #BYTE_ARRAY_CONVERTER})
   * and the sink decodes them itself with the registry at {@code registryUrl}.
   */
  public static Map<String, String> directPath(
      Map<String, String> upsertSinkConfig, String registryUrl) {
    Map<String, String> config = new LinkedHashMap<>(upsertSinkConfig);
    config
        .keySet()
        .removeIf(k -> k.startsWith("key.converter.") || k.startsWith("value.converter."));
    config.put("key.converter", BYTE_ARRAY_CONVERTER);
    config.put("value.converter", BYTE_ARRAY_CONVERTER);
    config.put(CONVERTER_REGISTRY_URL, registryUrl);
    return config;
  }

  /**
   * {@link #upsertSink} following every topic {@code topicsRegex} matches (Connect's {@code
   * topics.regex}) instead of one, each into its own table ({@code <db>.<table>_current} from
   * {@code broker.<db>.<table>.clean}), created by its first record.
   *
   * <p>A topic created after the connector started is picked up without a restart once the sink's
   * consumer refreshes its metadata: the worker's {@code consumer.metadata.max.age.ms} ({@link
   * SinkWorkerProperties}), not this config, bounds how late that is.
   *
   * @param topicsRegex e.g. {@code broker\.shop\..+\.clean}; never one that matches DLQ topics
   */
  public static Map<String, String> upsertSinkByRegex(
      String topicsRegex,
      String registryUrl,
      Map<String, String> icebergCatalog,
      long commitIntervalMs) {
    return upsertSink(
        Map.of("topics.regex", topicsRegex), registryUrl, icebergCatalog, commitIntervalMs);
  }

  /**
   * {@code upsertSinkConfig} with quarantine on: a record the table cannot take goes to the
   * router's DLQ of its input as envelope v1 ({@code errors.sink.tolerance=all}), written through
   * {@code bootstrapServers}.
   */
  public static Map<String, String> quarantining(
      Map<String, String> upsertSinkConfig, String bootstrapServers) {
    Map<String, String> config = new LinkedHashMap<>(upsertSinkConfig);
    config.put(UPSERT_ERRORS_SINK_TOLERANCE, "all");
    config.put(UPSERT_KAFKA_BOOTSTRAP_SERVERS, bootstrapServers);
    return config;
  }

  /**
   * The consumer group in which the Apache Iceberg sink's commit coordinator reads the control
   * topic: {@code <connect group>-coord}, the connect group being {@code connect-<connector>}
   * unless {@code iceberg.connect.group-id} says otherwise ({@link #changelogSink} leaves it
   * alone).
   *
   * <p>The coordinator commits this group's offsets only after a table commit and, without a
   * committed offset, starts at the end of the control topic (Iceberg 1.12). A worker's data-file
   * announcement sent before the coordinator's first table commit would then be skipped by the next
   * coordinator while the worker's source offsets already moved past its records: they never reach
   * the table. Committing this group's offsets at the start of the control topic before the
   * connector first runs closes that gap (see {@link IcebergControlTopic}).
   */
  public static String icebergCoordinatorGroup(String connectorName) {
    return "connect-" + connectorName + "-coord";
  }

  /**
   * The Apache Iceberg sink appending every event of {@code topic} to {@code
   * <db>.<table>_changelog} (db and table from the envelope's {@code source}), with the Debezium
   * operation and the Kafka topic/partition/offset of the event ({@code _cdc}, {@code
   * _kafka_metadata}); tombstones are dropped. The control topic must exist.
   *
   * <p>A record the sink's converter or transforms cannot take (not Avro, no Debezium envelope),
   * and one its table cannot take (a type the column cannot hold: refused by the changelog guard
   * last in the transform chain, since Connect's error tolerance does not cover the sink's {@code
   * put()}), goes to {@code dlqTopic} with Connect's {@code __connect.errors.*} context headers
   * (Connect's own error tolerance, {@code errors.tolerance=all}), and the task goes on. Retriable
   * errors (an unreachable registry: the converter's RetriableException) are retried without end,
   * so an outage holds the sink back and never sends a record to the DLQ. Payloads are not logged.
   *
   * @param dlqTopic the router's DLQ of the records in {@code topic}'s input ({@code
   *     TopicNames.dlqTopicOfRecordsIn(topic)} of module dlq, which this module does not use)
   */
  public static Map<String, String> changelogSink(
      String topic,
      String registryUrl,
      Map<String, String> icebergCatalog,
      String bootstrapServers,
      String controlTopic,
      long commitIntervalMs,
      String dlqTopic) {
    return changelogSink(
        Map.of("topics", topic),
        dlqTopic,
        registryUrl,
        icebergCatalog,
        bootstrapServers,
        controlTopic,
        commitIntervalMs);
  }

  private static Map<String, String> changelogSink(
      Map<String, String> subscription,
      String dlqTopic,
      String registryUrl,
      Map<String, String> icebergCatalog,
      String bootstrapServers,
      String controlTopic,
      long commitIntervalMs) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", ICEBERG_SINK_CONNECTOR);
    config.put("tasks.max", "1");
    config.putAll(subscription);
    converters(config, registryUrl);
    config.put("transforms", "tombstones,debezium,kafka," + GUARD);
    config.put("transforms.tombstones.type", "org.apache.kafka.connect.transforms.Filter");
    config.put("transforms.tombstones.predicate", "isTombstone");
    config.put("predicates", "isTombstone");
    config.put(
        "predicates.isTombstone.type",
        "org.apache.kafka.connect.transforms.predicates.RecordIsTombstone");
    config.put(
        "transforms.debezium.type", "org.apache.iceberg.connect.transforms.DebeziumTransform");
    config.put("transforms.debezium.cdc.target.pattern", "{db}.{table}_changelog");
    config.put(
        "transforms.kafka.type", "org.apache.iceberg.connect.transforms.KafkaMetadataTransform");
    config.put("transforms.kafka.nested", "true");
    config.put("iceberg.tables.dynamic-enabled", "true");
    config.put("iceberg.tables.route-field", "_cdc.target");
    config.put("iceberg.tables.auto-create-enabled", "true");
    config.put("iceberg.tables.evolve-schema-enabled", "true");
    config.put("iceberg.control.topic", controlTopic);
    config.put("iceberg.control.commit.interval-ms", String.valueOf(commitIntervalMs));
    config.put(
        "iceberg.control.commit.timeout-ms", String.valueOf(commitTimeoutMs(commitIntervalMs)));
    config.put("iceberg.kafka.bootstrap.servers", bootstrapServers);
    icebergCatalog.forEach(
        (k, v) -> config.put(k.equals("name") ? "iceberg.catalog" : "iceberg.catalog." + k, v));
    localWarehouse(config, icebergCatalog);
    guard(config);
    config.put("errors.tolerance", "all");
    config.put("errors.retry.timeout", "-1");
    config.put("errors.retry.delay.max.ms", "10000");
    config.put("errors.deadletterqueue.topic.name", dlqTopic);
    config.put("errors.deadletterqueue.context.headers.enable", "true");
    // Only used when the DLQ topic is missing; the router creates it with its input.
    config.put("errors.deadletterqueue.topic.replication.factor", "1");
    config.put("errors.log.enable", "true");
    config.put("errors.log.include.messages", "false");
    return config;
  }

  /**
   * {@link #changelogSink} following every topic {@code topicsRegex} matches (Connect's {@code
   * topics.regex}): each topic's events go to the changelog table of its envelope's db and table. A
   * topic created after the connector started is picked up within the worker's {@code
   * consumer.metadata.max.age.ms}, as for {@link #upsertSinkByRegex}.
   *
   * <p>Connect has one DLQ topic per connector, so the records its converter or transforms cannot
   * take go to {@code dlqTopic} rather than to the router's DLQ of their input; their {@code
   * __connect.errors.topic} header names the input.
   *
   * @param dlqTopic the connector's DLQ topic (created by Connect when missing)
   */
  public static Map<String, String> changelogSinkByRegex(
      String topicsRegex,
      String registryUrl,
      Map<String, String> icebergCatalog,
      String bootstrapServers,
      String controlTopic,
      long commitIntervalMs,
      String dlqTopic) {
    return changelogSink(
        Map.of("topics.regex", topicsRegex),
        dlqTopic,
        registryUrl,
        icebergCatalog,
        bootstrapServers,
        controlTopic,
        commitIntervalMs);
  }

  /**
   * The {@link #CHANGELOG_GUARD} last in the chain, where it sees the row the sink writes, given
   * the sink's own catalog keys, route field and schema evolution, so it judges each record against
   * the table the sink would write it to.
   */
  private static void guard(Map<String, String> config) {
    String prefix = "transforms." + GUARD + ".";
    config.put(prefix + "type", CHANGELOG_GUARD);
    config.put(prefix + GUARD_ROUTE_FIELD, config.get("iceberg.tables.route-field"));
    config.put(prefix + GUARD_SCHEMA_EVOLUTION, config.get("iceberg.tables.evolve-schema-enabled"));
    List<String> catalogKeys =
        config.keySet().stream()
            .filter(k -> k.startsWith("iceberg.catalog") || k.startsWith("iceberg.hadoop."))
            .toList();
    catalogKeys.forEach(k -> config.put(prefix + k, config.get(k)));
  }

  /**
   * How long the Apache sink's coordinator waits for every task's answer before it commits what it
   * has: five commit intervals, at least 10 s (Iceberg's default is 30 s). A task that answers late
   * loses nothing: its files are committed with the next commit. What it shortens is the first
   * commit after a restart: a restarted task's control-topic consumer may join after the first
   * commit request and never answer it, and the changelog then stood still for the whole timeout.
   */
  static long commitTimeoutMs(long commitIntervalMs) {
    return Math.max(10_000, 5 * commitIntervalMs);
  }

  private static void converters(Map<String, String> config, String registryUrl) {
    config.put("key.converter", REGISTRY_AVRO_CONVERTER);
    config.put("key.converter." + CONVERTER_REGISTRY_URL, registryUrl);
    config.put("value.converter", REGISTRY_AVRO_CONVERTER);
    config.put("value.converter." + CONVERTER_REGISTRY_URL, registryUrl);
  }

  /** A local warehouse without Hadoop's .crc side files. */
  private static void localWarehouse(Map<String, String> config, Map<String, String> catalog) {
    String warehouse = catalog.getOrDefault("warehouse", "");
    if (warehouse.startsWith("file:") || warehouse.startsWith("/")) {
      config.put("iceberg.hadoop.fs.file.impl", RAW_LOCAL_FS);
    }
  }
}
