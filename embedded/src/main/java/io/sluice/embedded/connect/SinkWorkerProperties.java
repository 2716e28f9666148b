package io.sluice.embedded.connect;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Connect worker properties the sinks of {@link ConnectorConfigs} rely on. A worker's own
 * {@code consumer.*} properties apply to the consumer of every sink task it runs, so the connector
 * configs carry no client override and the worker refuses all of them: with {@code
 * connector.client.config.override.policy=All} (Kafka 4.1's default) anyone who reaches Connect's
 * REST API, which has no authentication, could point a connector's clients anywhere.
 *
 * <p>compose's {@code connect/connect-distributed.properties} holds the same keys (a test compares
 * them); embedded workers get them as overrides of their worker properties.
 */
public final class SinkWorkerProperties {
  private SinkWorkerProperties() {}

  /**
   * The worker properties for both sinks.
   *
   * <ul>
   *   <li>{@code consumer.isolation.level=read_committed}: the router writes its clean topic in
   *       transactions, and Connect's consumers read uncommitted by default: a router killed
   *       mid-transaction left records that were aborted, and re-written by its successor, and a
   *       sink that read them appended each event twice.
   *   <li>{@code consumer.metadata.max.age.ms}: a sink following {@code topics.regex} matches it
   *       against the cluster metadata its consumer holds, refreshed this often (Kafka's default: 5
   *       min), so it bounds how late a topic created while the sink runs is picked up.
   *   <li>{@code connector.client.config.override.policy=None}: no {@code consumer.override.*},
   *       {@code producer.override.*} or {@code admin.override.*} key in any connector config.
   * </ul>
   *
   * @param topicRefreshMs how often every sink task's consumer looks for new matching topics
   */
  public static Map<String, String> of(long topicRefreshMs) {
    if (topicRefreshMs < 1) {
      throw new IllegalArgumentException(
          "topicRefreshMs must be at least 1 ms, got " + topicRefreshMs);
    }
    Map<String, String> worker = new LinkedHashMap<>();
    worker.put("consumer.isolation.level", "read_committed");
    worker.put("consumer.metadata.max.age.ms", String.valueOf(topicRefreshMs));
    worker.put("connector.client.config.override.policy", "None");
    return worker;
  }
}
