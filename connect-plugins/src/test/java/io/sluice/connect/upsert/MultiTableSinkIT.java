package io.sluice.connect.upsert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.connect.testing.ChangeProducer;
import io.sluice.connect.testing.ConnectStack;
import io.sluice.connect.testing.Envelopes;
import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.metrics.SinkMetricsEndpoint;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.embedded.connect.IcebergControlTopic;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Every table of a captured database through one pair of connectors on a real Connect worker: the
 * upsert sink and the Apache Iceberg changelog sink follow {@code broker\.shop\..+\.clean} by
 * regex, over a single-key table, a composite-key table and a table without a primary key whose
 * topic appears only after the connectors run. The worker refuses every connector client override
 * ({@code connector.client.config.override.policy=None}); its own {@code
 * consumer.metadata.max.age.ms} is what makes the sinks see the late topic.
 */
class MultiTableSinkIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String REGEX = "broker\\.shop\\..+\\.clean";
  private static final String ORDERS = "broker.shop.orders.clean";
  private static final String ITEMS = "broker.shop.order_items.clean";
  private static final String AUDIT = "broker.shop.audit_log.clean";
  private static final String CONTROL = "control-multi-table-it";
  private static final String UPSERT = "shop-upsert";
  private static final String CHANGELOG = "shop-changelog";

  /**
   * How long after its creation the late topic's events may take to reach the changelog table: the
   * worker's metadata refresh plus commits and the table's creation. Without the worker's refresh
   * the sinks' consumers would look after Kafka's default of 5 min.
   */
  private static final Duration LATE_TOPIC_BOUND =
      Duration.ofMillis(ConnectStack.TOPIC_REFRESH_MS).plusSeconds(40);

  private static final Schema ORDER_KEY =
      SchemaBuilder.struct()
          .name("broker.shop.orders.Key")
          .field("id", Schema.INT32_SCHEMA)
          .build();
  private static final Schema ORDER_ROW =
      SchemaBuilder.struct()
          .name("broker.shop.orders.Value")
          .optional()
          .field("id", Schema.INT32_SCHEMA)
          .field("customer", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  /** {@code PRIMARY KEY (order_id, line_no)}. */
  private static final Schema ITEM_KEY =
      SchemaBuilder.struct()
          .name("broker.shop.order_items.Key")
          .field("order_id", Schema.INT32_SCHEMA)
          .field("line_no", Schema.INT32_SCHEMA)
          .build();

  /** The columns list line_no first: the key's order, not the row's, is the table's key order. */
  private static final Schema ITEM_ROW =
      SchemaBuilder.struct()
          .name("broker.shop.order_items.Value")
          .optional()
          .field("line_no", Schema.INT32_SCHEMA)
          .field("order_id", Schema.INT32_SCHEMA)
          .field("sku", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  /** No primary key: Debezium sends null keys. */
  private static final Schema AUDIT_ROW =
      SchemaBuilder.struct()
          .name("broker.shop.audit_log.Value")
          .optional()
          .field("seq", Schema.INT32_SCHEMA)
          .field("what", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  @TempDir static Path dir;
  private static ConnectStack stack;
  private static ConnectRestClient rest;
  private static Lake lake;
  private static ChangeProducer producer;

  @BeforeAll
  static void startStack() throws Exception {
    stack = ConnectStack.start(dir, "sluice-multi-table-it");
    rest = stack.rest;
    lake = stack.lake;
    producer = stack.producer;
  }

  @AfterAll
  static void stopStack() throws Exception {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void everyTableOfTheDatabaseReachesTheLakeByRegex() throws Exception {
    ListAppender<ILoggingEvent> warnings = new ListAppender<>();
    warnings.start();
    Logger keylessLog = (Logger) LoggerFactory.getLogger(KeylessTables.class);
    keylessLog.addAppender(warnings);
    try {
      run(warnings);
    } finally {
      keylessLog.detachAppender(warnings);
    }
  }

  private void run(ListAppender<ILoggingEvent> warnings) throws Exception {
    stack.createTopics(2, ORDERS, ITEMS);
    stack.createTopics(1, CONTROL);
    try (Admin admin = stack.admin()) {
      IcebergControlTopic.prepare(admin, CONTROL, CHANGELOG);
    }
    Map<String, String> upsert =
        new HashMap<>(
            ConnectorConfigs.upsertSinkByRegex(
                REGEX, stack.registry.url(), lake.catalogObject(), 500));
    upsert.put("metrics.port", "0");
    Map<String, String> overriding = new HashMap<>(upsert);
    overriding.put("consumer.override.metadata.max.age.ms", "2000");
    assertThatThrownBy(() -> rest.putConnector("shop-overriding", overriding))
        .as("the worker refuses a connector client override")
        .isInstanceOf(ConnectRestClient.ConnectRestException.class)
        .hasMessageContaining("HTTP 400")
        .hasMessageContaining("'None' policy does not allow 'metadata.max.age.ms'");
    rest.putConnector(UPSERT, upsert);
    rest.putConnector(
        CHANGELOG,
        ConnectorConfigs.changelogSinkByRegex(
            REGEX,
            stack.registry.url(),
            lake.catalogObject(),
            stack.kafka.bootstrapServers(),
            CONTROL,
            1000,
            "shop-changelog.dlq"));
    rest.awaitRunning(UPSERT, WAIT);
    rest.awaitRunning(CHANGELOG, WAIT);

    order("c", 1, null, "ann");
    order("c", 2, null, "bob");
    order("u", 1, "ann", "ann2");
    item("c", 1, 1, null, "apple");
    item("c", 1, 2, null, "pear");
    item("c", 2, 1, null, "fig");
    item("u", 1, 2, "pear", "plum");
    item("d", 1, 1, "apple", null);
    // Created while the connectors run: found by the next metadata refresh, no restart.
    stack.createTopics(1, AUDIT);
    long auditCreated = System.nanoTime();
    for (int seq = 1; seq <= 3; seq++) {
      Struct row = new Struct(AUDIT_ROW).put("seq", seq).put("what", "secret-" + seq);
      producer.send(
          AUDIT,
          null,
          Envelopes.change(Envelopes.envelope(AUDIT_ROW), "shop", "audit_log", "c", null, row));
    }

    TableIdentifier orders = TableIdentifier.of("shop", "orders_current");
    TableIdentifier items = TableIdentifier.of("shop", "order_items_current");
    await("orders_current holds the final orders")
        .atMost(WAIT)
        .ignoreExceptions()
        .until(() -> orders(orders), rows -> rows.equals(List.of("1=ann2", "2=bob")));
    await("order_items_current holds the final lines")
        .atMost(WAIT)
        .ignoreExceptions()
        .until(() -> items(items), rows -> rows.equals(List.of("1/2=plum", "2/1=fig")));
    assertThat(identifierFields(orders)).containsExactly("id");
    assertThat(identifierFields(items)).containsExactly("order_id", "line_no");

    // table, a column to sort its rows by, its events
    for (Object[] changelog :
        new Object[][] {
          {"orders", "id", 3}, {"order_items", "order_id", 5}, {"audit_log", "seq", 3}
        }) {
      TableIdentifier id = TableIdentifier.of("shop", changelog[0] + "_changelog");
      await(id + " holds its " + changelog[2] + " events")
          .atMost(WAIT)
          .ignoreExceptions()
          .until(() -> lake.rows(id, (String) changelog[1]).size(), changelog[2]::equals);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - auditCreated))
        .as("the late topic's events reached its changelog table within the worker's refresh")
        .isLessThan(LATE_TOPIC_BOUND);

    String url = SinkMetricsEndpoint.url().orElseThrow();
    String keyless =
        "sluice_sink_keyless_records_total{connector=\""
            + UPSERT
            + "\",table=\"shop.audit_log_current\"} 3.0";
    await("the upsert sink counted the three keyless records")
        .atMost(WAIT)
        .until(() -> scrape(url), text -> text.contains(keyless));
    assertThat(lake.exists(TableIdentifier.of("shop", "audit_log_current"))).isFalse();
    assertThat(warnings.list)
        .singleElement()
        .satisfies(
            w -> {
              assertThat(w.getLevel()).isEqualTo(Level.WARN);
              assertThat(w.getFormattedMessage())
                  .contains("Topic " + AUDIT + " has records without a key")
                  .contains("writes no table shop.audit_log_current")
                  .doesNotContain("secret");
            });
    assertThat(rest.status(UPSERT).running()).as("upsert sink tasks RUNNING").isTrue();
    assertThat(rest.status(CHANGELOG).running()).as("changelog sink tasks RUNNING").isTrue();
    // The skipped records' offsets advance in Connect: nothing waits for a table that never comes.
    await("Connect holds the offset after the keyless records")
        .atMost(WAIT)
        .ignoreExceptions()
        .until(() -> committedOffset(AUDIT), Optional.of(3L)::equals);
  }

  private static void order(String op, int id, String before, String after) {
    producer.send(
        ORDERS,
        new Struct(ORDER_KEY).put("id", id),
        Envelopes.change(
            Envelopes.envelope(ORDER_ROW),
            "shop",
            "orders",
            op,
            before == null ? null : new Struct(ORDER_ROW).put("id", id).put("customer", before),
            after == null ? null : new Struct(ORDER_ROW).put("id", id).put("customer", after)));
  }

  private static void item(String op, int order, int line, String before, String after) {
    producer.send(
        ITEMS,
        new Struct(ITEM_KEY).put("order_id", order).put("line_no", line),
        Envelopes.change(
            Envelopes.envelope(ITEM_ROW),
            "shop",
            "order_items",
            op,
            before == null ? null : itemRow(order, line, before),
            after == null ? null : itemRow(order, line, after)));
  }

  private static Struct itemRow(int order, int line, String sku) {
    return new Struct(ITEM_ROW).put("order_id", order).put("line_no", line).put("sku", sku);
  }

  private static List<String> orders(TableIdentifier table) {
    return lake.rows(table, "id").stream()
        .map(r -> r.getField("id") + "=" + r.getField("customer"))
        .toList();
  }

  private static List<String> items(TableIdentifier table) {
    return lake.rows(table, "order_id").stream()
        .map(r -> r.getField("order_id") + "/" + r.getField("line_no") + "=" + r.getField("sku"))
        .sorted()
        .toList();
  }

  private static List<String> identifierFields(TableIdentifier table) {
    org.apache.iceberg.Schema schema = lake.table(table).schema();
    return schema.identifierFieldIds().stream().map(schema::findColumnName).toList();
  }

  /** The upsert connector's committed offset of partition 0 of {@code topic}, if any. */
  private static Optional<Long> committedOffset(String topic) throws Exception {
    try (Admin admin = stack.admin()) {
      return admin
          .listConsumerGroupOffsets("connect-" + UPSERT)
          .partitionsToOffsetAndMetadata()
          .get()
          .entrySet()
          .stream()
          .filter(e -> e.getKey().topic().equals(topic) && e.getKey().partition() == 0)
          .map(e -> e.getValue().offset())
          .findFirst();
    }
  }

  private static String scrape(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create(url)).build(), BodyHandlers.ofString())
        .body();
  }
}
