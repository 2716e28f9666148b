package io.sluice.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.contract.ReadyFile;
import io.sluice.embedded.TopicReader;
import io.sluice.lake.Catalogs;
import io.sluice.lake.IcebergRows;
import io.sluice.lake.LakeCatalog;
import io.sluice.stack.db.AuditLogWorkload;
import io.sluice.stack.db.CustomersWorkload;
import io.sluice.stack.db.LabTables;
import io.sluice.stack.db.OrderItemsWorkload;
import io.sluice.stack.db.OrdersWorkload;
import io.sluice.stack.db.TableWorkload;
import io.sluice.tools.reconcile.AllTablesReconciler;
import io.sluice.tools.reconcile.Reconciler;
import io.sluice.tools.reconcile.SourceTables;
import io.sluice.tools.reconcile.TableOutcome;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Every captured table reaches the lake on the embedded stack: orders (created by the stack before
 * capture starts), then customers, order_items (composite key) and the keyless audit_log, created
 * while the stack runs and written with inserts, updates and deletes. Both sinks follow every clean
 * topic by regex; each keyed table's current table equals its source (sluice reconcile --all), each
 * changelog holds every event of its clean topic, and the keyless table is warned about once and
 * fails nothing. A poison on one table's topic then leaves every other table flowing.
 */
class EveryTableIT {
  private static final Duration LAKE_WAIT = Duration.ofSeconds(120);

  @TempDir Path dataDir;

  @Test
  void everyTableOfTheDatabaseReachesTheLakeTablesCreatedWhileItRunsIncluded() throws Exception {
    Logger keyless = (Logger) LoggerFactory.getLogger("io.sluice.connect.upsert.KeylessTables");
    ListAppender<ILoggingEvent> warnings = new ListAppender<>();
    warnings.start();
    keyless.addAppender(warnings);
    try (EmbeddedStack stack = new EmbeddedStack(StackOptions.in(dataDir)).start();
        LakeCatalog lake = Catalogs.open(stack.icebergCatalog())) {
      Map<String, TableWorkload> workloads = new LinkedHashMap<>();
      workloads.put("orders", new OrdersWorkload(3));
      workloads.put("customers", new CustomersWorkload(3));
      workloads.put("order_items", new OrderItemsWorkload(3));
      workloads.put("audit_log", new AuditLogWorkload(3));
      try (Connection c = stack.mariaDb().connect()) {
        workloads.get("orders").run(c, 40, 10, 5, line -> {});
      }
      awaitEveryTableEqual(stack, lake, 1);
      // The other tables appear while both sinks run: the topic refresh must find them.
      try (Connection c = stack.mariaDb().connect()) {
        for (String name : List.of("customers", "order_items", "audit_log")) {
          TableWorkload workload = workloads.get(name);
          try (Statement s = c.createStatement()) {
            s.execute(workload.createSql());
          }
          workload.run(c, 30, 9, 4, line -> {});
        }
      }

      List<TableOutcome> outcomes = awaitEveryTableEqual(stack, lake, 4);
      assertThat(outcomes)
          .extracting(o -> o.table() + " " + o.status())
          .containsExactly(
              "cdc_lab.audit_log SKIPPED",
              "cdc_lab.customers EQUAL",
              "cdc_lab.order_items EQUAL",
              "cdc_lab.orders EQUAL");
      assertThat(outcomes.get(2).result().sourceRows()).isEqualTo(30 - 4);
      assertThat(lake.table("cdc_lab.order_items_current").schema().identifierFieldNames())
          .containsExactlyInAnyOrder("order_id", "line_no");
      assertThat(lake.catalog().tableExists(TableIdentifier.of("cdc_lab", "audit_log_current")))
          .as("a keyless table has no current table")
          .isFalse();

      for (String name : workloads.keySet()) {
        List<String> events = cleanEvents(stack, name);
        assertThat(events).as("events of %s", name).isNotEmpty();
        await("cdc_lab." + name + "_changelog holds every event of its clean topic")
            .atMost(LAKE_WAIT)
            .ignoreExceptions()
            .untilAsserted(
                () ->
                    assertThat(changelogCoordinates(lake, name))
                        .containsExactlyInAnyOrderElementsOf(events));
      }
      assertThat(cleanEvents(stack, "audit_log")).hasSize(30 + 9 + 4);

      assertThat(warnings.list)
          .as("one WARN for the keyless table")
          .filteredOn(e -> e.getFormattedMessage().contains("broker.cdc_lab.audit_log.clean"))
          .hasSize(1);
      String sinkMetrics = get(stack.endpoints().get(ReadyFile.UPSERT_SINK_METRICS_URL).toString());
      assertThat(sinkMetrics).contains("sluice_sink_keyless_records_total{");
      // One table's poison stalls no other: a record that is no Avro on customers' topic, then
      // more changes to every table.
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(
              Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()),
              new ByteArraySerializer(),
              new ByteArraySerializer())) {
        producer
            .send(
                new ProducerRecord<>(
                    "broker.cdc_lab.customers",
                    "k".getBytes(StandardCharsets.UTF_8),
                    "{\"not\":\"avro\"}".getBytes(StandardCharsets.UTF_8)))
            .get();
      }
      try (Connection c = stack.mariaDb().connect()) {
        for (String name : workloads.keySet()) {
          LabTables.workload(name, 4).run(c, 12, 4, 2, line -> {});
        }
      }
      List<TableOutcome> after = awaitEveryTableEqual(stack, lake, 4);
      assertThat(after.get(3).result().sourceRows()).as("orders rows").isEqualTo(40 - 5 + 12 - 2);
      assertThat(
              TopicReader.readCommitted(stack.bootstrapServers(), "broker.cdc_lab.customers.dlq"))
          .as("the poison, quarantined alone")
          .hasSize(1);
      for (String connector :
          List.of(StackLayout.DEFAULT.upsertSink(), StackLayout.DEFAULT.changelogSink())) {
        assertThat(stack.connectClient().status(connector).tasks())
            .as("%s tasks", connector)
            .extracting(t -> t.state())
            .containsOnly("RUNNING");
      }
    } finally {
      keyless.detachAppender(warnings);
    }
  }

  /** Waits until {@code sluice reconcile --all} finds at least {@code tables} tables, all ok. */
  private static List<TableOutcome> awaitEveryTableEqual(
      EmbeddedStack stack, LakeCatalog lake, int tables) {
    return await("every keyed table equals its source")
        .atMost(LAKE_WAIT)
        .ignoreExceptions()
        .until(
            () -> {
              try (Connection c = stack.mariaDb().connect()) {
                return new AllTablesReconciler(Reconciler.withDefaults(line -> {}), line -> {})
                    .reconcile(
                        c,
                        lake.catalog(),
                        SourceTables.discover(c, List.of("cdc_lab")),
                        outcome -> {});
              }
            },
            outcomes ->
                outcomes.size() >= tables && outcomes.stream().allMatch(o -> o.status().ok()));
  }

  /**
   * {@code partition@offset} of every change event (not tombstone) of {@code table}'s clean topic.
   */
  private static List<String> cleanEvents(EmbeddedStack stack, String table) {
    return TopicReader.readCommitted(stack.bootstrapServers(), "broker.cdc_lab." + table + ".clean")
        .stream()
        .filter(r -> r.value() != null)
        .map(r -> r.partition() + "@" + r.offset())
        .toList();
  }

  private static List<String> changelogCoordinates(LakeCatalog lake, String table) {
    return IcebergRows.readAll(lake.table("cdc_lab." + table + "_changelog")).stream()
        .map(r -> (Record) r.getField("_kafka_metadata"))
        .map(m -> m.getField("partition") + "@" + m.getField("offset"))
        .toList();
  }

  private static String get(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
