package io.sluice.capture.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CaptureConfigTest {
  private static Map<String, Object> minimal() {
    Map<String, Object> m = new HashMap<>();
    m.put("database.user", "cdc");
    m.put("bootstrap.servers", "127.0.0.1:9092");
    m.put("schema.registry.url", "http://127.0.0.1:8081");
    return m;
  }

  @Test
  void defaultsGiveTheEngineMariaDbWithOffsetsAndHistoryInKafka() {
    Map<String, String> expected = new HashMap<>();
    expected.put("name", "sluice-capture");
    expected.put("connector.class", "io.debezium.connector.mariadb.MariaDbConnector");
    expected.put("database.hostname", "127.0.0.1");
    expected.put("database.port", "3306");
    expected.put("database.user", "cdc");
    expected.put("database.password", "");
    expected.put("database.server.id", "5400");
    expected.put("database.include.list", "cdc_lab");
    expected.put("topic.prefix", "broker");
    expected.put("include.schema.changes", "false");
    expected.put("tombstones.on.delete", "true");
    expected.put("decimal.handling.mode", "precise");
    expected.put("offset.flush.interval.ms", "1000");
    expected.put("offset.storage", "org.apache.kafka.connect.storage.KafkaOffsetBackingStore");
    expected.put("offset.storage.topic", "_sluice-capture-offsets");
    expected.put("offset.storage.partitions", "1");
    expected.put("offset.storage.replication.factor", "1");
    expected.put("bootstrap.servers", "127.0.0.1:9092");
    expected.put("schema.history.internal", "io.debezium.storage.kafka.history.KafkaSchemaHistory");
    expected.put("schema.history.internal.kafka.topic", "_sluice-capture-schema-history");
    expected.put("schema.history.internal.kafka.bootstrap.servers", "127.0.0.1:9092");

    CaptureConfig config = new CaptureConfig(minimal());

    assertThat(config.engineProperties()).containsExactlyInAnyOrderEntriesOf(expected);
    assertThat(config.getInt(CaptureConfig.TOPIC_PARTITIONS_CONFIG)).isEqualTo(3);
    assertThat(config.getString(CaptureConfig.ADMIN_HOST_CONFIG)).isEqualTo("127.0.0.1");
    assertThat(config.getInt(CaptureConfig.ADMIN_PORT_CONFIG)).isZero();
  }

  @Test
  void unknownKeysFailLoudlyNamingTheKeyButNotItsValue() {
    Map<String, Object> m = minimal();
    m.put("database.pasword", "s3cret");

    assertThatThrownBy(() -> new CaptureConfig(m))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("Unknown capture configuration key 'database.pasword'")
        .hasMessageContaining("docs/configuration.md, 'Capture configuration'")
        .hasMessageContaining("prefix 'debezium.'")
        .hasMessageNotContaining("s3cret");
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "connector            | postgres       | String must be one of (case insensitive): MARIADB, MYSQL",
        "database.hostname    | ''             | String must be non-empty",
        "database.port        | 0              | Value must be at least 1",
        "database.port        | 65536          | Value must be no more than 65535",
        "database.user        | ''             | String must be non-empty",
        "database.server.id   | 4294967296     | Value must be no more than 4294967295",
        "schema.registry.url  | 127.0.0.1:8081 | must be an http:// or https:// URL",
        "topic.prefix         | ''             | String must be non-empty",
        "topic.partitions     | 0              | Value must be at least 1",
        "offset.storage       | zookeeper      | String must be one of (case insensitive): KAFKA, FILE",
        "offset.storage.topic | ''             | String must be non-empty",
        "admin.port           | -1             | Value must be at least 0",
        "name                 | ''             | String must be non-empty",
      })
  void aBadValueIsRejectedNamingTheKeyAndTheValue(String key, String value, String problem) {
    Map<String, Object> m = minimal();
    m.put(key, value);

    assertThatThrownBy(() -> new CaptureConfig(m))
        .isInstanceOf(ConfigException.class)
        .hasMessage("Invalid value " + value + " for configuration " + key + ": " + problem);
  }

  @Test
  void debeziumKeysPassThroughLastWithThePrefixStripped() {
    Map<String, Object> m = minimal();
    m.put("debezium.snapshot.mode", "no_data");
    m.put("debezium.include.schema.changes", "true");

    Properties p = new CaptureConfig(m).engineProperties();

    assertThat(p.getProperty("snapshot.mode")).isEqualTo("no_data");
    assertThat(p.getProperty("include.schema.changes")).isEqualTo("true");
  }

  @Test
  void mysqlAndFileStorageAreSelectedByConfiguration() {
    Map<String, Object> m = minimal();
    m.put("connector", "MySQL");
    m.put("offset.storage", "file");
    m.put("offset.storage.dir", "/var/lib/sluice");

    Properties p = new CaptureConfig(m).engineProperties();

    assertThat(p.getProperty("connector.class"))
        .isEqualTo("io.debezium.connector.mysql.MySqlConnector");
    assertThat(p.getProperty("offset.storage.file.filename"))
        .isEqualTo("/var/lib/sluice/offsets.dat");
    assertThat(p.getProperty("schema.history.internal"))
        .isEqualTo("io.debezium.storage.file.history.FileSchemaHistory");
  }

  @Test
  void fileStorageWithoutADirIsRejected() {
    Map<String, Object> m = minimal();
    m.put("offset.storage", "file");

    assertThatThrownBy(() -> new CaptureConfig(m))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "Invalid value  for configuration offset.storage.dir: required when"
                + " offset.storage=file");
  }
}
