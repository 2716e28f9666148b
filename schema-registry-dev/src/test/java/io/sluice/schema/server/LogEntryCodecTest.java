package io.sluice.schema.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.schema.server.LogEntry.ConfigEntry;
import io.sluice.schema.server.LogEntry.SchemaEntry;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LogEntryCodecTest {
  private static final String SCHEMA_KEY =
      "{\"keytype\":\"SCHEMA\",\"subject\":\"orders-value\",\"version\":2,\"magic\":1}";
  private static final String SCHEMA_VALUE =
      "{\"subject\":\"orders-value\",\"version\":2,\"id\":7,\"schema\":\"\\\"long\\\"\","
          + "\"deleted\":false}";
  private static final String GLOBAL_CONFIG_KEY =
      "{\"keytype\":\"CONFIG\",\"subject\":null,\"magic\":1}";
  private static final String CONFIG_VALUE = "{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}";

  @Test
  void schemaEntryHasAFixedJsonForm() {
    SchemaEntry entry = new SchemaEntry("orders-value", 2, 7, "\"long\"");

    assertThat(text(LogEntryCodec.key(entry))).isEqualTo(SCHEMA_KEY);
    assertThat(text(LogEntryCodec.value(entry))).isEqualTo(SCHEMA_VALUE);
    assertThat(LogEntryCodec.decode(bytes(SCHEMA_KEY), bytes(SCHEMA_VALUE))).isEqualTo(entry);
  }

  @Test
  void configEntryHasAFixedJsonForm() {
    ConfigEntry global = new ConfigEntry(null, CompatibilityLevel.FULL_TRANSITIVE);
    ConfigEntry subject = new ConfigEntry("orders-key", CompatibilityLevel.NONE);

    assertThat(text(LogEntryCodec.key(global))).isEqualTo(GLOBAL_CONFIG_KEY);
    assertThat(text(LogEntryCodec.value(global))).isEqualTo(CONFIG_VALUE);
    assertThat(LogEntryCodec.decode(bytes(GLOBAL_CONFIG_KEY), bytes(CONFIG_VALUE)))
        .isEqualTo(global);
    assertThat(LogEntryCodec.decode(LogEntryCodec.key(subject), LogEntryCodec.value(subject)))
        .isEqualTo(subject);
  }

  @Test
  void tombstonesDeletedVersionsAndUnknownKeyTypesAreSkipped() {
    assertThat(LogEntryCodec.decode(bytes(SCHEMA_KEY), null)).isNull();
    assertThat(
            LogEntryCodec.decode(
                bytes(SCHEMA_KEY),
                bytes(SCHEMA_VALUE.replace("\"deleted\":false", "\"deleted\":true"))))
        .isNull();
    assertThat(LogEntryCodec.decode(bytes("{\"keytype\":\"NOOP\",\"magic\":0}"), bytes("{}")))
        .isNull();
  }

  @Test
  void malformedRecordsAreRejectedWithoutEchoingThem() {
    assertThatThrownBy(() -> LogEntryCodec.decode(bytes("garbage"), bytes(SCHEMA_VALUE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not JSON (7 bytes)");
    assertThatThrownBy(() -> LogEntryCodec.decode(bytes(SCHEMA_KEY), bytes("{\"subject\":\"s\"}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("missing number field 'version'");
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
