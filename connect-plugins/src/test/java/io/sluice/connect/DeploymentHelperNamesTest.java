package io.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.connect.converter.RegistryAvroConverter;
import io.sluice.connect.converter.RegistryAvroConverterConfig;
import io.sluice.connect.guard.ChangelogGuard;
import io.sluice.connect.guard.ChangelogGuardConfig;
import io.sluice.connect.upsert.UpsertSinkConnector;
import io.sluice.connect.upsert.config.UpsertSinkConfig;
import io.sluice.embedded.connect.ConnectorConfigs;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.runtime.SinkConnectorConfig;
import org.junit.jupiter.api.Test;

/**
 * Module embedded's {@link ConnectorConfigs} names the plugin classes and their keys by string (it
 * cannot depend on this module, whose tests use it), as a user writes them in connector JSON. These
 * tests fail when a name drifts from the plugin: a renamed class or key would otherwise only show
 * as a connector that fails to start in the stack or in compose.
 */
class DeploymentHelperNamesTest {
  private static final String REGEX = "broker\\.shop\\..+\\.clean";
  private static final Map<String, String> CATALOG =
      Map.of("name", "lake", "type", "jdbc", "uri", "jdbc:sqlite:/tmp/c.db", "warehouse", "/tmp/w");
  private static final String GUARD_PREFIX = "transforms." + ConnectorConfigs.GUARD + ".";

  /** Connect's own keys of a sink connector (connector.class, topics, converters, errors...). */
  private static final Set<String> CONNECT_KEYS = SinkConnectorConfig.configDef().names();

  @Test
  void theClassNamesAreThoseOfThePluginClasses() {
    assertThat(ConnectorConfigs.UPSERT_SINK_CONNECTOR)
        .isEqualTo(UpsertSinkConnector.class.getName());
    assertThat(ConnectorConfigs.REGISTRY_AVRO_CONVERTER)
        .isEqualTo(RegistryAvroConverter.class.getName());
    assertThat(ConnectorConfigs.CHANGELOG_GUARD).isEqualTo(ChangelogGuard.class.getName());
  }

  @Test
  void theSinkConfigsNameThePluginClasses() {
    for (Map<String, String> upsert : upsertSinks()) {
      assertThat(upsert)
          .containsEntry("connector.class", UpsertSinkConnector.class.getName())
          .containsEntry("key.converter", RegistryAvroConverter.class.getName())
          .containsEntry("value.converter", RegistryAvroConverter.class.getName());
    }
    for (Map<String, String> changelog : changelogSinks()) {
      assertThat(changelog)
          .containsEntry(GUARD_PREFIX + "type", ChangelogGuard.class.getName())
          .containsEntry("key.converter", RegistryAvroConverter.class.getName())
          .containsEntry("value.converter", RegistryAvroConverter.class.getName());
    }
  }

  @Test
  void everyKeyOfTheUpsertSinkConfigsIsConnectsOrTheSinksOrTheConverters() {
    Set<String> sinkKeys = UpsertSinkConfig.configDef().names();
    for (Map<String, String> upsert : upsertSinks()) {
      assertThat(upsert.keySet())
          .as("keys neither Connect's, nor UpsertSinkConfig's, nor the converter's")
          .allMatch(
              k ->
                  CONNECT_KEYS.contains(k)
                      || sinkKeys.contains(k)
                      || k.startsWith(UpsertSinkConfig.CATALOG_PREFIX)
                      || k.startsWith(UpsertSinkConfig.HADOOP_PREFIX)
                      || ofTheConverter(k));
      // The sink refuses keys it would ignore and values it cannot take.
      assertThat(UpsertSinkConfig.validate(upsert).configValues())
          .flatExtracting(ConfigValue::errorMessages)
          .isEmpty();
    }
  }

  @Test
  void quarantiningWritesTheUpsertSinksErrorKeys() {
    Map<String, String> upsert = ConnectorConfigs.upsertSink("t", "http://r", CATALOG, 500);
    Map<String, String> quarantining = ConnectorConfigs.quarantining(upsert, "kafka:9092");

    assertThat(quarantining)
        .containsEntry(UpsertSinkConfig.ERRORS_SINK_TOLERANCE_CONFIG, "all")
        .containsEntry(UpsertSinkConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG, "kafka:9092")
        .containsEntry(UpsertSinkConfig.COMMIT_INTERVAL_MS_CONFIG, "500")
        .containsEntry(UpsertSinkConfig.CATALOG_NAME_CONFIG, "lake");
  }

  @Test
  void everyGuardKeyOfTheChangelogSinkConfigsIsTheGuards() {
    Set<String> guardKeys = ChangelogGuardConfig.configDef().names();
    for (Map<String, String> changelog : changelogSinks()) {
      List<String> written =
          changelog.keySet().stream()
              .filter(k -> k.startsWith(GUARD_PREFIX))
              .map(k -> k.substring(GUARD_PREFIX.length()))
              .filter(k -> !k.equals("type"))
              .toList();
      assertThat(written)
          .contains(
              ChangelogGuardConfig.ROUTE_FIELD_CONFIG,
              ChangelogGuardConfig.SCHEMA_EVOLUTION_CONFIG,
              ChangelogGuardConfig.CATALOG_NAME_CONFIG)
          .as("guard keys ChangelogGuardConfig does not define")
          .allMatch(
              k ->
                  guardKeys.contains(k)
                      || k.startsWith(ChangelogGuardConfig.CATALOG_PREFIX)
                      || k.startsWith(ChangelogGuardConfig.HADOOP_PREFIX));
      assertThat(changelog.keySet())
          .filteredOn(k -> k.startsWith("key.converter.") || k.startsWith("value.converter."))
          .isNotEmpty()
          .as("converter keys RegistryAvroConverterConfig does not define")
          .allMatch(DeploymentHelperNamesTest::ofTheConverter);
    }
  }

  private static boolean ofTheConverter(String key) {
    Set<String> converterKeys = RegistryAvroConverterConfig.configDef().names();
    return Stream.of("key.converter.", "value.converter.")
        .anyMatch(p -> key.startsWith(p) && converterKeys.contains(key.substring(p.length())));
  }

  private static List<Map<String, String>> upsertSinks() {
    return List.of(
        ConnectorConfigs.upsertSink("t", "http://registry", CATALOG, 500),
        ConnectorConfigs.quarantining(
            ConnectorConfigs.upsertSinkByRegex(REGEX, "http://registry", CATALOG, 500),
            "kafka:9092"));
  }

  private static List<Map<String, String>> changelogSinks() {
    return List.of(
        ConnectorConfigs.changelogSink(
            "t", "http://registry", CATALOG, "kafka:9092", "control", 1_000, "t.dlq"),
        ConnectorConfigs.changelogSinkByRegex(
            REGEX, "http://registry", CATALOG, "kafka:9092", "control", 1_000, "shop.dlq"));
  }
}
