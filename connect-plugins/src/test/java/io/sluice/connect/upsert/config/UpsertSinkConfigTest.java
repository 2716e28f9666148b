package io.sluice.connect.upsert.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contract.TopicNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UpsertSinkConfigTest {
  private static Map<String, String> minimal() {
    Map<String, String> props = new HashMap<>();
    props.put("name", "orders-upsert");
    props.put("connector.class", "io.sluice.connect.upsert.UpsertSinkConnector");
    props.put("topics", "broker.cdc_lab.orders.clean");
    props.put("value.converter", "io.sluice.connect.converter.RegistryAvroConverter");
    props.put("value.converter.schema.registry.url", "http://127.0.0.1:1");
    props.put("transforms", "");
    props.put("errors.tolerance", "none");
    props.put("consumer.override.max.poll.records", "100");
    props.put("iceberg.catalog.type", "jdbc");
    props.put("iceberg.catalog.uri", "jdbc:sqlite:/tmp/x.db");
    props.put("iceberg.catalog.jdbc.schema-version", "V1");
    props.put("iceberg.hadoop.fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
    return props;
  }

  @Test
  void theSubscribedTopicsComeFromConnectsTopicsOrTopicsRegex() {
    Map<String, String> listed = new HashMap<>(minimal());
    listed.put("topics", "a.clean, b.clean");
    assertThat(new UpsertSinkConfig(listed).subscribedTopics())
        .accepts("a.clean", "b.clean")
        .rejects("c.clean");
    Map<String, String> regex = new HashMap<>(minimal());
    regex.remove("topics");
    regex.put("topics.regex", "broker\\.cdc\\..+\\.clean");
    assertThat(new UpsertSinkConfig(regex).subscribedTopics())
        .accepts("broker.cdc.orders.clean")
        .rejects("broker.cdc.orders.dlq");
    Map<String, String> neither = new HashMap<>(minimal());
    neither.remove("topics");
    assertThat(new UpsertSinkConfig(neither).subscribedTopics()).accepts("anything");
  }

  @Test
  void minimalConfigIsValidAndHasTheDefaults() {
    assertThat(errors(minimal())).isEmpty();
    UpsertSinkConfig config = new UpsertSinkConfig(minimal());
    assertThat(config.connectorName()).isEqualTo("orders-upsert");
    assertThat(config.inputFormat()).isEqualTo(InputFormat.DEBEZIUM);
    assertThat(config.commitIntervalMs()).isEqualTo(3_000L);
    assertThat(config.tableFormatVersion()).isEqualTo(2);
    assertThat(config.tablePartitionBy()).isEmpty();
    assertThat(config.catalogName()).isEqualTo("sluice");
    assertThat(config.catalogProperties())
        .containsEntry("type", "jdbc")
        .containsEntry("uri", "jdbc:sqlite:/tmp/x.db")
        .containsEntry("jdbc.schema-version", "V1");
    assertThat(config.hadoopProperties())
        .isEqualTo(Map.of("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem"));
  }

  @Test
  void quarantineIsOffByDefaultAndNeedsKafkaWhenOn() {
    UpsertSinkConfig defaults = new UpsertSinkConfig(minimal());
    assertThat(defaults.errorsSinkTolerance()).isEqualTo(ErrorTolerance.NONE);
    assertThat(defaults.errorsSinkDlqTopic()).isNull();
    assertThat(defaults.errorsSinkRetryTimeoutMs()).isEqualTo(60_000L);

    Map<String, String> props = minimal();
    props.put("errors.sink.tolerance", "all");
    assertThat(errors(props).get("kafka.bootstrap.servers"))
        .singleElement()
        .asString()
        .contains("errors.sink.tolerance=all quarantines records to Kafka");

    props.put("kafka.bootstrap.servers", "127.0.0.1:9092");
    props.put("kafka.security.protocol", "PLAINTEXT");
    props.put("errors.sink.deadletterqueue.topic.name", "sink.dlq");
    assertThat(errors(props)).isEmpty();
    UpsertSinkConfig config = new UpsertSinkConfig(props);
    assertThat(config.errorsSinkTolerance()).isEqualTo(ErrorTolerance.ALL);
    assertThat(config.errorsSinkDlqTopic()).isEqualTo("sink.dlq");
    assertThat(config.kafkaProperties())
        .isEqualTo(Map.of("bootstrap.servers", "127.0.0.1:9092", "security.protocol", "PLAINTEXT"));
  }

  @Test
  void theTopicSuffixesAreTheRoutersKeysWithItsDefaults() {
    assertThat(new UpsertSinkConfig(minimal()).topicNames()).isEqualTo(TopicNames.DEFAULTS);
    assertThat(UpsertSinkConfig.CLEAN_TOPIC_SUFFIX_CONFIG).isEqualTo("clean.topic.suffix");
    assertThat(UpsertSinkConfig.DLQ_TOPIC_SUFFIX_CONFIG).isEqualTo("dlq.topic.suffix");

    Map<String, String> props = minimal();
    props.put("clean.topic.suffix", ".valid");
    props.put("dlq.topic.suffix", ".quarantine");
    assertThat(errors(props)).isEmpty();
    assertThat(new UpsertSinkConfig(props).topicNames())
        .isEqualTo(TopicNames.of(".valid", ".quarantine"));
  }

  @Test
  void aBadTopicSuffixIsAttachedToItsKeyWithTheValue() {
    Map<String, String> props = minimal();
    props.put("dlq.topic.suffix", ".dead letters");
    assertThat(errors(props).get("dlq.topic.suffix"))
        .singleElement()
        .asString()
        .isEqualTo(
            "Invalid value .dead letters for configuration dlq.topic.suffix: may hold only"
                + " letters, digits, '.', '_' and '-' (a Kafka topic's)");

    props.put("dlq.topic.suffix", ".clean");
    assertThat(errors(props)).containsOnlyKeys("dlq.topic.suffix");
    assertThat(errors(props).get("dlq.topic.suffix"))
        .containsExactly(
            "must differ from clean.topic.suffix ('.clean'): a topic would have both roles");

    props.put("dlq.topic.suffix", ".x.repairs");
    assertThat(errors(props).get("dlq.topic.suffix"))
        .singleElement()
        .asString()
        .isEqualTo(
            "repairs.topic.suffix: '.repairs' must not end with, nor be the end of,"
                + " dlq.topic.suffix ('.x.repairs'): a topic would have both roles");
    assertThatThrownBy(() -> new UpsertSinkConfig(props))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("dlq.topic.suffix: repairs.topic.suffix: '.repairs'");
  }

  @Test
  void aMistypedSinkErrorsKeyIsRefusedThoughErrorsBelongsToTheFramework() {
    Map<String, String> props = minimal();
    props.put("errors.sink.tolerence", "all");
    props.put("errors.deadletterqueue.topic.name", "connect.dlq");
    Map<String, List<String>> errors = errors(props);
    assertThat(errors).containsOnlyKeys("errors.sink.tolerence");
    assertThat(errors.get("errors.sink.tolerence"))
        .singleElement()
        .asString()
        .contains("unknown configuration key 'errors.sink.tolerence'");
  }

  @Test
  void upsertModeFlagOfOtherSinksIsRefusedNotIgnored() {
    Map<String, String> props = minimal();
    props.put("upsert-mode-enabled", "true");
    props.put("iceberg.tables.upsert-mode-enabled", "true");
    assertThat(errors(props).get("upsert-mode-enabled"))
        .singleElement()
        .asString()
        .contains(
            "'upsert-mode-enabled' is not supported: this sink always upserts by primary key");
    assertThat(errors(props)).containsKey("iceberg.tables.upsert-mode-enabled");
    assertThatThrownBy(() -> new UpsertSinkConfig(props))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("upsert-mode-enabled: 'upsert-mode-enabled' is not supported");
  }

  @Test
  void unknownKeyIsRefusedNamingIt() {
    Map<String, String> props = minimal();
    props.put("commit.intervall.ms", "10");
    assertThat(errors(props).get("commit.intervall.ms"))
        .singleElement()
        .asString()
        .startsWith("unknown configuration key 'commit.intervall.ms' for the upsert sink");
    props.remove("commit.intervall.ms");
    props.put("iceberg.tables.default-id-columns", "id");
    assertThat(errors(props).get("iceberg.tables.default-id-columns"))
        .singleElement()
        .asString()
        .contains("set primary.key.fields instead");
  }

  @Test
  void theTestHooksAreNoKeysOfTheShippedSink() {
    Map<String, String> props = minimal();
    props.put("sluice.test.fail.after.commits", "1");
    props.put("sluice.test.fail.after.dlq.writes", "1");
    assertThat(errors(props))
        .containsOnlyKeys("sluice.test.fail.after.commits", "sluice.test.fail.after.dlq.writes");
    assertThat(errors(props).get("sluice.test.fail.after.commits"))
        .singleElement()
        .asString()
        .startsWith("unknown configuration key 'sluice.test.fail.after.commits'");
  }

  @Test
  void catalogMustBeConfiguredOnce() {
    Map<String, String> props = minimal();
    props.remove("iceberg.catalog.type");
    Map<String, List<String>> errors = errors(props);
    assertThat(errors.get("iceberg.catalog.type"))
        .singleElement()
        .asString()
        .contains("the Iceberg catalog is not configured");
    assertThat(errors).containsKey("iceberg.catalog.catalog-impl");
    props.put("iceberg.catalog.type", "jdbc");
    props.put("iceberg.catalog.catalog-impl", "x.Y");
    assertThat(errors(props).get("iceberg.catalog.catalog-impl"))
        .singleElement()
        .asString()
        .contains("set only one of");
  }

  @Test
  void flatOpFieldWithDebeziumInputIsAttachedToTheOffendingKey() {
    Map<String, String> props = minimal();
    props.put("flat.op.field", "op");
    assertThat(errors(props).get("flat.op.field"))
        .singleElement()
        .asString()
        .contains("only applies to input.format=flat");
    props.put("input.format", "flat");
    assertThat(errors(props)).isEmpty();
  }

  @Test
  void partitionColumnsMustBeKeyColumns() {
    Map<String, String> props = minimal();
    props.put("primary.key.fields", "id");
    props.put("table.partition.by", "bucket(id, 16), customer");
    assertThat(errors(props).get("table.partition.by"))
        .singleElement()
        .asString()
        .contains("identity(customer) not on primary.key.fields [id]")
        .contains("partition by key fields only, or drop the term");
    props.put("table.partition.by", "bucket(id, 16), truncate(id, 10)");
    assertThat(errors(props)).isEmpty();
    assertThat(new UpsertSinkConfig(props).tablePartitionBy())
        .containsExactly(
            new PartitionTerm(PartitionTerm.Transform.BUCKET, "id", 16),
            new PartitionTerm(PartitionTerm.Transform.TRUNCATE, "id", 10));
  }

  @Test
  void badValuesAreReportedPerKey() {
    Map<String, String> props = minimal();
    props.put("table.partition.by", "year(created)");
    props.put("table.format.version", "1");
    props.put("input.format", "json");
    props.put("table.topic.regex", "(unclosed");
    Map<String, List<String>> errors = errors(props);
    assertThat(errors.get("table.partition.by").get(0)).contains("partition term 'year(created)'");
    assertThat(errors.get("table.format.version").get(0)).contains("Value must be at least 2");
    assertThat(errors.get("input.format").get(0)).contains("String must be one of: debezium, flat");
    assertThat(errors.get("table.topic.regex").get(0)).contains("not a valid Java regex");
  }

  @Test
  void tableNamePlaceholdersMustBeRegexGroups() {
    Map<String, String> props = minimal();
    props.put("table.name.format", "{schema}.{table}");
    assertThat(errors(props).get("table.name.format"))
        .singleElement()
        .asString()
        .contains("placeholder {schema} is neither {topic} nor a named group");
  }

  @Test
  void everyDeclaredKeyHasDocDefaultGroupAndImportance() {
    for (ConfigDef.ConfigKey key : UpsertSinkConfig.configDef().configKeys().values()) {
      assertThat(key.documentation).as(key.name).isNotBlank();
      assertThat(key.importance).as(key.name).isNotNull();
      if (!key.internalConfig) {
        assertThat(key.group).as(key.name).isNotBlank();
        assertThat(key.hasDefault()).as(key.name).isTrue();
      }
    }
  }

  @Test
  void theKeyIndexSpillsUpTo8GibUnderTheTempDirByDefault() {
    UpsertSinkConfig defaults = new UpsertSinkConfig(minimal());
    assertThat(defaults.keyIndexMaxBytes()).isEqualTo(512L << 20);
    assertThat(defaults.keyIndexSpillMaxBytes()).isEqualTo(8L << 30);
    assertThat(defaults.keyIndexSpillDir())
        .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "sluice-key-index"));
  }

  @Test
  void aSpillDirThatCannotBeWrittenIsAttachedToItsKeyNamingTheDirectory(@TempDir Path dir)
      throws IOException {
    Path file = Files.createFile(dir.resolve("a-file"));
    Map<String, String> props = minimal();
    props.put("key-index.spill.dir", file.resolve("spill").toString());
    assertThat(errors(props).get("key-index.spill.dir"))
        .singleElement(InstanceOfAssertFactories.STRING)
        .contains("the key index cannot spill to " + file.resolve("spill"))
        .contains("key-index.spill.max-bytes=0 to never spill");

    props.put("key-index.spill.max-bytes", "0");
    assertThat(errors(props)).isEmpty();
    props.put("key-index.spill.max-bytes", "-1");
    assertThat(errors(props).get("key-index.spill.max-bytes"))
        .singleElement(InstanceOfAssertFactories.STRING)
        .contains("Value must be at least 0");

    props.put("key-index.spill.max-bytes", "1");
    props.put("key-index.spill.dir", dir.resolve("made/here").toString());
    assertThat(errors(props)).isEmpty();
    assertThat(dir.resolve("made/here")).isEmptyDirectory();
  }

  @Test
  void maintenanceIsOnByDefaultAndItsKeysAreChecked() {
    UpsertSinkConfig defaults = new UpsertSinkConfig(minimal());
    assertThat(defaults.maintenanceEnabled()).isTrue();
    MaintenanceSettings settings = defaults.maintenance();
    assertThat(settings.rewriteDeleteFiles())
        .isEqualTo(MaintenanceConfig.REWRITE_DELETE_FILES_DEFAULT);
    assertThat(settings.rewriteDeletedFraction()).isEqualTo(0.15);
    assertThat(settings.targetFileSizeBytes()).isEqualTo(128L << 20);
    assertThat(settings.keepLastSnapshots()).isEqualTo(100);
    assertThat(settings.orphansOlderThanMs()).isEqualTo(3 * 86_400_000L);

    Map<String, String> props = minimal();
    props.put("maintenance.rewrite.delete-files", "0");
    props.put("maintenance.orphans.older-than-ms", "60000");
    props.put("maintenance.manifests.max-count", "1");
    props.put("maintenance.rewrite.deleted-fraction", "0");
    Map<String, List<String>> errors = errors(props);
    assertThat(errors.get("maintenance.rewrite.delete-files"))
        .singleElement(InstanceOfAssertFactories.STRING)
        .contains("Value must be at least 1");
    assertThat(errors.get("maintenance.orphans.older-than-ms"))
        .singleElement(InstanceOfAssertFactories.STRING)
        .contains("Value must be at least 3600000");
    assertThat(errors).containsKey("maintenance.manifests.max-count");
    assertThat(errors.get("maintenance.rewrite.deleted-fraction"))
        .singleElement(InstanceOfAssertFactories.STRING)
        .contains("Value must be at least 0.01");
    assertThat(UpsertSinkConfig.configDef().configKeys().get("maintenance.enabled").group)
        .isEqualTo("Maintenance");
  }

  @Test
  void theOffsetsHorizonIsAWeekAndAtLeastThreeIdleCommitIntervals() {
    assertThat(new UpsertSinkConfig(minimal()).maintenance().offsetsHorizonMs())
        .isEqualTo(604_800_000L);

    Map<String, String> props = minimal();
    props.put("maintenance.idle-commit.interval-ms", "300000");
    props.put("maintenance.snapshots.offsets-horizon-ms", "899999");
    Map<String, List<String>> errors = errors(props);
    String expected =
        "maintenance.snapshots.offsets-horizon-ms (899999) must be at least 3 x"
            + " maintenance.idle-commit.interval-ms (300000)";
    assertThat(errors.get("maintenance.snapshots.offsets-horizon-ms"))
        .singleElement(InstanceOfAssertFactories.STRING)
        .startsWith(expected)
        .contains("raise the horizon or lower the interval");
    assertThat(errors.get("maintenance.idle-commit.interval-ms"))
        .singleElement(InstanceOfAssertFactories.STRING)
        .startsWith(expected);
    assertThatThrownBy(() -> new UpsertSinkConfig(props))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(expected);

    props.put("maintenance.snapshots.offsets-horizon-ms", "900000");
    assertThat(errors(props)).isEmpty();
    props.put("maintenance.snapshots.offsets-horizon-ms", "1000");
    props.put("maintenance.enabled", "false");
    assertThat(errors(props)).as("nothing expires without maintenance").isEmpty();
  }

  private static Map<String, List<String>> errors(Map<String, String> props) {
    return UpsertSinkConfig.validate(props).configValues().stream()
        .filter(v -> !v.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }
}
