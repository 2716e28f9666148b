package io.sluice.stack;

import io.sluice.contract.TopicNames;
import io.sluice.embedded.EmbeddedMariaDb;
import io.sluice.router.config.RouterConfig;
import io.sluice.stack.db.OrdersTable;

/**
 * Every name of the stack, in one place: topics, consumer groups, connectors, Iceberg tables and
 * the Prometheus jobs. Both stacks ({@link EmbeddedStack}, {@link ProcessStack}) and everything
 * that drives them (the scenarios, the benchmarks, the deployment tests) read the names here
 * instead of spelling them.
 *
 * @param topicPrefix the capture's topic prefix: a source table {@code db.t} is topic {@code
 *     <prefix>.db.t}
 * @param database the captured database
 * @param mainTable the table every scenario starts from ({@code orders})
 * @param mainTopicPartitions partitions of every change topic the capture creates
 * @param topics the clean, DLQ and repairs suffixes the router runs with ({@code
 *     clean.topic.suffix}, {@code dlq.topic.suffix}); the sinks, the monitor and the ready file
 *     follow them
 * @param routerApplicationId the router's Kafka Streams application id (its consumer group)
 * @param captureName the capture's name (its admin API path and offsets)
 * @param connectGroupId the Connect worker's group id; its internal topics are {@code <id>-configs}
 *     and so on
 * @param upsertSink the Sluice upsert sink connector: every clean topic to {@code
 *     <db>.<table>_current}
 * @param changelogSink the Apache Iceberg sink connector: every event of every clean topic to
 *     {@code <db>.<table>_changelog}
 * @param icebergControlTopic the Apache Iceberg sink's commit coordination topic
 */
public record StackLayout(
    String topicPrefix,
    String database,
    String mainTable,
    int mainTopicPartitions,
    TopicNames topics,
    String routerApplicationId,
    String captureName,
    String connectGroupId,
    String upsertSink,
    String changelogSink,
    String icebergControlTopic) {

  // Prometheus job names of the stack's endpoints, the same as in
  // compose/prometheus/prometheus.yml.
  public static final String ROUTER_JOB = "sluice-router";
  public static final String CAPTURE_JOB = "sluice-capture";
  public static final String UPSERT_SINK_JOB = "sluice-upsert-sink";
  public static final String MONITOR_JOB = "sluice-monitor";

  /** The names the stack runs with unless told otherwise. */
  public static final StackLayout DEFAULT =
      new StackLayout(
          "broker",
          EmbeddedMariaDb.DATABASE,
          OrdersTable.NAME,
          3,
          TopicNames.DEFAULTS,
          RouterConfig.APPLICATION_ID_DEFAULT,
          "sluice-capture",
          "sluice-connect",
          "sluice-upsert-sink",
          "sluice-changelog-sink",
          "_sluice-iceberg-control");

  /** This layout with the router's output suffixes. */
  public StackLayout withTopics(TopicNames names) {
    return new StackLayout(
        topicPrefix,
        database,
        mainTable,
        mainTopicPartitions,
        names,
        routerApplicationId,
        captureName,
        connectGroupId,
        upsertSink,
        changelogSink,
        icebergControlTopic);
  }

  /** The change topic of a table of the captured database. */
  public String changeTopic(String table) {
    return topicPrefix + "." + database + "." + table;
  }

  /** The change topic of the main table ({@code broker.cdc_lab.orders}). */
  public String mainTopic() {
    return changeTopic(mainTable);
  }

  /** The router's output of valid records of the main table: what the lakehouse sinks read. */
  public String cleanTopic() {
    return topics.cleanTopic(mainTopic());
  }

  /** The router's (and the upsert sink's) dead letters of the main table. */
  public String dlqTopic() {
    return topics.dlqTopic(mainTopic());
  }

  /**
   * What both sinks follow: every clean topic of the captured database, one Iceberg table per
   * source table.
   */
  public String cleanTopicsRegex() {
    return escape(topicPrefix + "." + database + ".") + "[^.]+" + escape(topics.cleanSuffix());
  }

  /**
   * Connect's DLQ of the changelog sink (one topic per connector): what its converter or transforms
   * could not take, of any clean topic; the {@code __connect.errors.topic} header names the input.
   */
  public String changelogSinkDlq() {
    return changelogSink + ".dlq";
  }

  /** The upsert sink's table of the main table ({@code cdc_lab.orders_current}). */
  public String currentTable() {
    return database + "." + mainTable + "_current";
  }

  /** The changelog sink's table of the main table ({@code cdc_lab.orders_changelog}). */
  public String changelogTable() {
    return database + "." + mainTable + "_changelog";
  }

  private static String escape(String literal) {
    return literal.replace(".", "\\.");
  }
}
