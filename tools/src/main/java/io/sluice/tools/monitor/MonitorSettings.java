package io.sluice.tools.monitor;

import io.sluice.contract.TopicNames;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What {@link PipelineMonitor} watches and where it serves its metrics. Start from {@link
 * #defaults(String)} and change what differs with the {@code with...} methods; every value is
 * checked here, and a bad one fails with an {@link IllegalArgumentException} naming the setting.
 *
 * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port...]}
 * @param topicNames the router's topic names: the DLQ topics' suffix, their ledgers' and the source
 *     topic ({@code topic} label) of a DLQ topic
 * @param dlqTopicPattern the DLQ topics to watch (the whole name must match; by default every name
 *     ending with the DLQ suffix); a ledger topic ({@code <dlq>.repairs}) is never watched as a DLQ
 * @param groupPattern the consumer groups whose lag is reported (the whole id must match)
 * @param refreshInterval the time between the end of one refresh and the start of the next
 * @param metricsHost the address {@code /metrics} and {@code /health} bind to
 * @param metricsPort their port; 0 picks a free one
 * @param iceberg the Iceberg tables whose metadata is read, and how often; {@link
 *     IcebergSettings#NONE} for none
 */
public record MonitorSettings(
    String bootstrapServers,
    TopicNames topicNames,
    Pattern dlqTopicPattern,
    Pattern groupPattern,
    Duration refreshInterval,
    String metricsHost,
    int metricsPort,
    IcebergSettings iceberg) {

  /** Every consumer group. */
  public static final String DEFAULT_GROUP_PATTERN = ".*";

  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(5);
  public static final Duration MIN_REFRESH_INTERVAL = Duration.ofMillis(100);
  public static final String DEFAULT_METRICS_HOST = "127.0.0.1";

  public MonitorSettings {
    if (bootstrapServers == null || bootstrapServers.isBlank()) {
      throw new IllegalArgumentException(
          "bootstrapServers must name at least one host:port, got '" + bootstrapServers + "'");
    }
    Objects.requireNonNull(topicNames, "topicNames");
    Objects.requireNonNull(dlqTopicPattern, "dlqTopicPattern");
    Objects.requireNonNull(groupPattern, "groupPattern");
    if (refreshInterval == null || refreshInterval.compareTo(MIN_REFRESH_INTERVAL) < 0) {
      throw new IllegalArgumentException(
          "refreshInterval must be at least "
              + MIN_REFRESH_INTERVAL.toMillis()
              + " ms, got "
              + (refreshInterval == null ? "null" : refreshInterval.toMillis() + " ms"));
    }
    if (metricsHost == null || metricsHost.isBlank()) {
      throw new IllegalArgumentException(
          "metricsHost must be an address to bind to, got '" + metricsHost + "'");
    }
    if (metricsPort < 0 || metricsPort > 65535) {
      throw new IllegalArgumentException(
          "metricsPort must be a TCP port (1-65535) or 0 for a free one, got " + metricsPort);
    }
    Objects.requireNonNull(iceberg, "iceberg");
  }

  /**
   * The defaults: the default topic names (every {@code *.dlq} topic), every group, 5 s, a free
   * port on 127.0.0.1, no Iceberg catalog.
   */
  public static MonitorSettings defaults(String bootstrapServers) {
    return new MonitorSettings(
        bootstrapServers,
        TopicNames.DEFAULTS,
        TopicNames.DEFAULTS.dlqTopicPattern(),
        regex("groupPattern", DEFAULT_GROUP_PATTERN),
        DEFAULT_REFRESH_INTERVAL,
        DEFAULT_METRICS_HOST,
        0,
        IcebergSettings.NONE);
  }

  /**
   * These settings with the router's topic names {@code names}, watching every topic ending with
   * their DLQ suffix (a pattern given before is replaced: give it after).
   */
  public MonitorSettings withTopicNames(TopicNames names) {
    return new MonitorSettings(
        bootstrapServers,
        names,
        Objects.requireNonNull(names, "names").dlqTopicPattern(),
        groupPattern,
        refreshInterval,
        metricsHost,
        metricsPort,
        iceberg);
  }

  /** These settings watching the DLQ topics {@code regex} matches. */
  public MonitorSettings withDlqTopicPattern(String regex) {
    return new MonitorSettings(
        bootstrapServers,
        topicNames,
        regex("dlqTopicPattern", regex),
        groupPattern,
        refreshInterval,
        metricsHost,
        metricsPort,
        iceberg);
  }

  /** These settings reporting the lag of the consumer groups {@code regex} matches. */
  public MonitorSettings withGroupPattern(String regex) {
    return new MonitorSettings(
        bootstrapServers,
        topicNames,
        dlqTopicPattern,
        regex("groupPattern", regex),
        refreshInterval,
        metricsHost,
        metricsPort,
        iceberg);
  }

  /** These settings refreshing every {@code interval}. */
  public MonitorSettings withRefreshInterval(Duration interval) {
    return new MonitorSettings(
        bootstrapServers,
        topicNames,
        dlqTopicPattern,
        groupPattern,
        interval,
        metricsHost,
        metricsPort,
        iceberg);
  }

  /** These settings serving on {@code host:port} (0 = a free port). */
  public MonitorSettings withMetrics(String host, int port) {
    return new MonitorSettings(
        bootstrapServers,
        topicNames,
        dlqTopicPattern,
        groupPattern,
        refreshInterval,
        host,
        port,
        iceberg);
  }

  /**
   * These settings reading the metadata of the Iceberg tables in {@code catalog}: its properties as
   * {@code CatalogUtil.buildIcebergCatalog} takes them, plus {@code name} (the ready file's {@code
   * iceberg_catalog}); null turns the Iceberg part off.
   */
  public MonitorSettings withIcebergCatalog(Map<String, String> catalog) {
    return withIceberg(iceberg.withCatalog(catalog));
  }

  /**
   * These settings watching only {@code tablesOrNamespaces} ({@code cdc_lab} or {@code
   * cdc_lab.orders_current}); empty for every table of every namespace.
   */
  public MonitorSettings withIcebergTables(List<String> tablesOrNamespaces) {
    return withIceberg(iceberg.withTables(tablesOrNamespaces));
  }

  /** These settings re-reading the Iceberg tables every {@code interval}. */
  public MonitorSettings withIcebergRefreshInterval(Duration interval) {
    return withIceberg(iceberg.withRefreshInterval(interval));
  }

  /** These settings with {@code iceberg} as their Iceberg part. */
  public MonitorSettings withIceberg(IcebergSettings iceberg) {
    return new MonitorSettings(
        bootstrapServers,
        topicNames,
        dlqTopicPattern,
        groupPattern,
        refreshInterval,
        metricsHost,
        metricsPort,
        iceberg);
  }

  private static Pattern regex(String setting, String regex) {
    if (regex == null || regex.isEmpty()) {
      throw new IllegalArgumentException(setting + " must be a Java regex, got '" + regex + "'");
    }
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          setting + " is not a valid Java regex: '" + regex + "' (" + e.getDescription() + ")", e);
    }
  }
}
