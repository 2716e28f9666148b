package io.sluice.capture.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class CaptureConfigTest {
  private static Map<String, Object> minimal() {
    Map<String, Object> m = new HashMap<>();
    m.put("database.user", "cdc");
    m.put("bootstrap.servers", "127.0.0.1:9092");
    m.put("schema.registry.url", "http://127.0.0.1:8081");
    return m;
  }

  @Test
  void unknownKeysFailLoudlyNamingTheKey() {
    Map<String, Object> m = minimal();
    m.put("upsert-mode-enabled", "true");

    assertThatThrownBy(() -> new CaptureConfig(m))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("upsert-mode-enabled")
        .hasMessageContaining("unknown capture setting");
  }

  @Test
  void kafkaStorageByDefaultAndDebeziumKeysPassThroughLast() {
    Map<String, Object> m = minimal();
    m.put("debezium.snapshot.mode", "no_data");
    m.put("debezium.include.schema.changes", "true");

    Properties p = new CaptureConfig(m).engineProperties();

    assertThat(p.getProperty("connector.class"))
        .isEqualTo("io.debezium.connector.mariadb.MariaDbConnector");
    assertThat(p.getProperty("offset.storage"))
        .isEqualTo("org.apache.kafka.connect.storage.KafkaOffsetBackingStore");
    assertThat(p.getProperty("schema.history.internal.kafka.bootstrap.servers"))
        .isEqualTo("127.0.0.1:9092");
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
        .hasMessageContaining("offset.storage.dir")
        .hasMessageContaining("required when offset.storage=file");
  }
}
