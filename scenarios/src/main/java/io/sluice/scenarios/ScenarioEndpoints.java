package io.sluice.scenarios;

import io.sluice.contract.ReadyFile;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The endpoints a scenario talks to, as the ready file of {@code sluice up} names them.
 *
 * @param connectUrl the Kafka Connect REST URL of the sinks; null when the ready file has none (a
 *     scenario that reads the sinks' status then fails saying so)
 * @param controlUrl the process stack's control API ({@code sluice up --processes}); null for any
 *     other stack (a scenario that injects a process fault then fails saying so)
 * @param routerMetricsUrls every router instance's metrics URL (a scaled-out process stack runs
 *     several); {@code routerMetricsUrl} alone when the ready file lists none
 */
public record ScenarioEndpoints(
    String bootstrapServers,
    String schemaRegistryUrl,
    String routerMetricsUrl,
    String jdbcUrl,
    String jdbcUser,
    String jdbcPassword,
    String captureAdminUrl,
    Map<String, String> icebergCatalog,
    String connectUrl,
    String controlUrl,
    List<String> routerMetricsUrls) {

  /**
   * The endpoints of a ready file's entries.
   *
   * @throws IllegalArgumentException naming the first key that is missing
   */
  public static ScenarioEndpoints fromReadyFile(Map<String, Object> ready) {
    Object catalog = ready.get(ReadyFile.ICEBERG_CATALOG);
    if (!(catalog instanceof Map<?, ?> object)) {
      throw new IllegalArgumentException(
          "no "
              + ReadyFile.ICEBERG_CATALOG
              + " endpoint: give a ready file that has it, or --catalog name=...,"
              + " --catalog type=..., --catalog uri=..., --catalog warehouse=...");
    }
    Map<String, String> properties = new LinkedHashMap<>();
    object.forEach(
        (k, v) -> {
          if (v != null) {
            properties.put(String.valueOf(k), v.toString());
          }
        });
    return new ScenarioEndpoints(
        required(ready, ReadyFile.BOOTSTRAP_SERVERS),
        required(ready, ReadyFile.SCHEMA_REGISTRY_URL),
        required(ready, ReadyFile.ROUTER_METRICS_URL),
        required(ready, ReadyFile.JDBC_URL),
        required(ready, ReadyFile.JDBC_USER),
        String.valueOf(ready.getOrDefault(ReadyFile.JDBC_PASSWORD, "")),
        required(ready, ReadyFile.CAPTURE_ADMIN_URL),
        properties,
        optional(ready, ReadyFile.CONNECT_URL),
        optional(ready, ReadyFile.CONTROL_URL),
        ready.get(ReadyFile.ROUTER_METRICS_URLS) instanceof List<?> urls && !urls.isEmpty()
            ? urls.stream().map(String::valueOf).toList()
            : List.of(required(ready, ReadyFile.ROUTER_METRICS_URL)));
  }

  private static String optional(Map<String, Object> ready, String key) {
    Object value = ready.get(key);
    return value == null ? null : String.valueOf(value);
  }

  private static String required(Map<String, Object> ready, String key) {
    Object value = ready.get(key);
    if (value == null || value.toString().isBlank()) {
      throw new IllegalArgumentException(
          "no " + key + " endpoint: give a ready file that has it, or --endpoint " + key + "=...");
    }
    return value.toString();
  }
}
