package io.sluice.connect.upsert;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.connect.testing.ChangeProducer;
import io.sluice.connect.testing.ConnectStack;
import io.sluice.connect.testing.Envelopes;
import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.metrics.SinkMetricsEndpoint;
import io.sluice.contract.TopicNames;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.ConnectRestClient.ConnectRestException;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.embedded.connect.IcebergControlTopic;
import io.sluice.schema.server.DevSchemaRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upsert sink (and the Apache sink for the changelog) in a real distributed Connect worker on
 * an embedded broker, with the dev schema registry and a JdbcCatalog on SQLite; tables read back
 * with Iceberg's generic reader, deletes applied.
 */
class UpsertSinkConnectorIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir static Path dir;
  private static ConnectStack stack;
  private static EmbeddedKafka kafka;
  private static DevSchemaRegistry registry;
  private static ConnectRestClient rest;
  private static Lake lake;
  private static ChangeProducer producer;

  @BeforeAll
  static void startStack() throws Exception {
    stack = ConnectStack.start(dir, "sluice-connect-it");
    kafka = stack.kafka;
    registry = stack.registry;
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
  void changesReachTheCurrentTableAndEveryEventTheChangelog() throws Exception {
    String topic = "broker.cdc_lab.orders.clean";
    createTopic(topic, 2);
    createTopic("control-iceberg-it", 1);
    try (Admin admin = admin()) {
      IcebergControlTopic.prepare(admin, "control-iceberg-it", "orders-changelog");
    }
    Schema wider =
        SchemaBuilder.struct()
            .name("broker.cdc_lab.orders.Value")
            .optional()
            .field("id", Schema.INT32_SCHEMA)
            .field("customer", Schema.OPTIONAL_STRING_SCHEMA)
            .field(
                "created_at",
                SchemaBuilder.int64().name("io.debezium.time.Timestamp").optional().build())
            .build();
    rest.putConnector("orders-upsert", upsertConfig(topic, Map.of()));
    rest.putConnector("orders-changelog", changelogConfig(topic, "control-iceberg-it"));
    rest.awaitRunning("orders-upsert", WAIT);
    rest.awaitRunning("orders-changelog", WAIT);

    producer.send(topic, key(1), change("r", null, row(1, "ann")));
    producer.send(topic, key(2), change("r", null, row(2, "bob")));
    producer.send(topic, key(3), change("c", null, row(3, "cid")));
    producer.send(topic, key(1), change("u", row(1, "ann"), row(1, "ann2")));
    producer.send(topic, key(2), change("d", row(2, "bob"), null));
    producer.send(topic, key(2), null);
    Struct withTime =
        new Struct(wider).put("id", 4).put("customer", "dee").put("created_at", 1_700_000_123_456L);
    producer.send(topic, key(4), change(Envelopes.envelope(wider), "c", null, withTime));

    TableIdentifier current = TableIdentifier.of("cdc_lab", "orders_current");
    await("current table equals the source")
        .atMost(WAIT)
        .ignoreExceptions()
        .until(() -> state(current), s -> s.equals(List.of("1=ann2", "3=cid", "4=dee")));
    Record dee = lake.rows(current, "id").get(2);
    assertThat(dee.getField("created_at"))
        .isEqualTo(LocalDateTime.of(2023, 11, 14, 22, 15, 23, 456_000_000));
    assertThat(lake.rows(current, "id").get(0).getField("created_at")).isNull();

    TableIdentifier changelog = TableIdentifier.of("cdc_lab", "orders_changelog");
    await("changelog holds the six change events")
        .atMost(WAIT)
        .ignoreExceptions()
        .until(() -> lake.rows(changelog, "id").size(), n -> n == 6);
    List<Record> events = lake.rows(changelog, "id");
    Set<String> coordinates = new HashSet<>();
    for (Record event : events) {
      Record kafkaMetadata = (Record) event.getField("_kafka_metadata");
      Record cdc = (Record) event.getField("_cdc");
      coordinates.add(kafkaMetadata.getField("partition") + "@" + kafkaMetadata.getField("offset"));
      assertThat(cdc.getField("op")).isIn("I", "U", "D");
    }
    assertThat(coordinates).hasSize(6);
    assertThat(events)
        .extracting(e -> ((Record) e.getField("_cdc")).getField("op"))
        .containsOnlyOnce("D");
  }

  @Test
  void replayedBatchesAndResetOffsetsNeverLeaveTwoRowsForAKey() throws Exception {
    String topic = "broker.it_replay.orders.clean";
    TableIdentifier table = TableIdentifier.of("it_replay", "orders_current");
    createTopic(topic, 2);
    rest.putConnector("replay-upsert", upsertConfig(topic, Map.of()));
    rest.awaitRunning("replay-upsert", WAIT);
    for (int round = 0; round < 2; round++) {
      producer.send(topic, key(1), change("c", null, row(1, "v1")));
      producer.send(topic, key(2), change("c", null, row(2, "w1")));
    }
    producer.send(topic, key(1), change("u", row(1, "v1"), row(1, "v2")));
    producer.send(topic, key(1), change("c", null, row(1, "v1-again")));
    await("Iceberg holds the offsets of all six records")
        .atMost(WAIT)
        .ignoreExceptions()
        .until(() -> heldRecordCount(table, "replay-upsert"), n -> n == 6);
    assertThat(state(table)).containsExactly("1=v1-again", "2=w1");

    // Connect forgets its offsets: the task must seek to Iceberg's and not rewrite old batches.
    int snapshotsBefore = snapshots(table).size();
    rest.stopConnector("replay-upsert");
    await("connector stopped")
        .atMost(WAIT)
        .until(() -> rest.status("replay-upsert").state().equals("STOPPED"));
    rest.resetOffsets("replay-upsert");
    rest.resumeConnector("replay-upsert");
    rest.awaitRunning("replay-upsert", WAIT);
    producer.send(topic, key(3), change("c", null, row(3, "x")));
    await("new row after the reset")
        .atMost(WAIT)
        .ignoreExceptions()
        .until(() -> state(table), s -> s.equals(List.of("1=v1-again", "2=w1", "3=x")));
    List<Snapshot> after = snapshots(table).subList(snapshotsBefore, snapshots(table).size());
    assertThat(after)
        .extracting(s -> s.summary().get("sluice.commit.keys"))
        .as("snapshots after the reset write only the new record")
        .containsExactly("1");
  }

  @Test
  void taskKilledAfterTheIcebergCommitRestartsWithoutDuplicatesOrGaps() throws Exception {
    String topic = "broker.it_crash.orders.clean";
    TableIdentifier table = TableIdentifier.of("it_crash", "orders_current");
    createTopic(topic, 2);
    for (int id = 1; id <= 20; id++) {
      producer.send(topic, key(id), change("c", null, row(id, "first")));
    }
    rest.putConnector(
        "crash-upsert",
        crashingConfig(topic, Map.of(CrashingUpsertSinkTask.FAIL_AFTER_COMMITS, "1")));
    await("task fails right after its first Iceberg commit")
        .atMost(WAIT)
        // The worker answers 404 until the connector's status is first written.
        .ignoreException(ConnectRestClient.ConnectRestException.class)
        .until(
            () -> rest.status("crash-upsert").tasks(),
            t -> !t.isEmpty() && t.get(0).state().equals("FAILED"));
    assertThat(rest.status("crash-upsert").tasks().get(0).trace())
        .contains("failing right after Iceberg commit 1");
    Map<TopicPartition, Long> atCrash = lake.offsets(table, "crash-upsert");
    assertThat(atCrash).isNotEmpty();

    // New task configs (hook removed) make the worker restart the failed task.
    rest.putConnector("crash-upsert", crashingConfig(topic, Map.of()));
    await("task restarted")
        .atMost(WAIT)
        .ignoreException(ConnectRestClient.ConnectRestException.class)
        .until(() -> rest.status("crash-upsert").running());
    for (int id = 21; id <= 30; id++) {
      producer.send(topic, key(id), change("c", null, row(id, "second")));
    }
    await("all thirty rows")
        .atMost(WAIT)
        .ignoreExceptions()
        .until(() -> lake.rows(table, "id").size(), n -> n == 30);
    List<Record> rows = lake.rows(table, "id");
    assertThat(rows).extracting(r -> r.getField("id")).doesNotHaveDuplicates();
    // Every record was written exactly once: nothing before the crash commit was written again.
    assertThat(committedRecords(table, "crash-upsert")).isEqualTo(30);
  }

  @Test
  void theSinkServesItsMetricsToPrometheus() throws Exception {
    String topic = "broker.it_metrics.orders.clean";
    // One partition: the creates come before the delete, so every batch has a table to write.
    createTopic(topic, 1);
    rest.putConnector("metrics-upsert", upsertConfig(topic, Map.of("metrics.port", "0")));
    rest.awaitRunning("metrics-upsert", WAIT);
    String url =
        await("the task started the metrics endpoint")
            .atMost(WAIT)
            .until(SinkMetricsEndpoint::url, Optional::isPresent)
            .orElseThrow();
    for (int id = 1; id <= 4; id++) {
      producer.send(topic, key(id), change("c", null, row(id, "m" + id)));
    }
    producer.send(topic, key(9), change("d", row(9, "gone"), null));
    producer.send(topic, key(9), null);

    String tags = "connector=\"metrics-upsert\",table=\"it_metrics.orders_current\"";
    String scrape =
        await("rows upserted and deleted on " + url)
            .atMost(WAIT)
            .until(
                () -> scrape(url),
                text ->
                    text.contains("sluice_sink_rows_deleted_total{" + tags + "} 1.0")
                        && text.contains("sluice_sink_records_total{" + op("tombstone") + "} 1.0"));
    assertThat(scrape)
        .contains("sluice_sink_rows_upserted_total{" + tags + "} 4.0")
        .contains("sluice_sink_records_total{" + op("c") + "} 4.0")
        .contains("sluice_sink_records_total{" + op("d") + "} 1.0")
        .contains("sluice_sink_commits_total{" + result("failure") + "} 0.0")
        .contains("sluice_sink_freshness_seconds_count{" + tags + "} 5")
        .contains("sluice_sink_last_commit_timestamp_seconds{" + tags + "}");
    Matcher commits =
        Pattern.compile(
                Pattern.quote("sluice_sink_commits_total{" + result("success") + "} ") + "(\\S+)")
            .matcher(scrape);
    assertThat(commits.find()).as("success commits in %s", scrape).isTrue();
    assertThat(Double.parseDouble(commits.group(1))).isGreaterThan(0);
  }

  @Test
  void theWorkerRefusesUnknownAndUnsupportedKeys() {
    Map<String, String> config =
        upsertConfig("broker.it_refuse.orders.clean", Map.of("upsert-mode-enabled", "true"));
    assertThatThrownBy(() -> rest.putConnector("refused-upsert", config))
        .isInstanceOf(ConnectRestException.class)
        .hasMessageContaining("400")
        .hasMessageContaining("'upsert-mode-enabled' is not supported");
    Map<String, List<String>> errors =
        rest.validate(
            UpsertSinkConnector.class.getName(),
            upsertConfig("t", Map.of("iceberg.catalog.type", "")));
    assertThat(errors).containsKey("iceberg.catalog.type");
    assertThat(rest.connectors()).doesNotContain("refused-upsert");
  }

  private static String op(String op) {
    return "connector=\"metrics-upsert\",op=\"" + op + "\",table=\"it_metrics.orders_current\"";
  }

  private static String result(String result) {
    return "connector=\"metrics-upsert\",result=\""
        + result
        + "\",table=\"it_metrics.orders_current\"";
  }

  private static String scrape(String url) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(HttpRequest.newBuilder(URI.create(url)).build(), BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  /** How many records the offsets Iceberg holds cover (every partition starts at 0). */
  private static long heldRecordCount(TableIdentifier table, String connector) {
    return lake.offsets(table, connector).values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * Sum of the keys the sink's commits wrote ({@code sluice.commit.keys}; a merged commit's
   * added-records also counts the rows it carried over).
   */
  private static long committedRecords(TableIdentifier table, String connector) {
    long total = 0;
    for (Snapshot snapshot : snapshots(table)) {
      if (snapshot.summary().containsKey("sluice.offsets." + connector)) {
        total += Long.parseLong(snapshot.summary().get("sluice.commit.keys"));
      }
    }
    return total;
  }

  private static List<Snapshot> snapshots(TableIdentifier id) {
    Table table = lake.table(id);
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    return snapshots;
  }

  private static List<String> state(TableIdentifier table) {
    return lake.rows(table, "id").stream()
        .map(r -> r.getField("id") + "=" + r.getField("customer"))
        .toList();
  }

  private static Map<String, String> upsertConfig(String topic, Map<String, String> extra) {
    Map<String, String> config =
        new HashMap<>(
            ConnectorConfigs.upsertSink(topic, registry.url(), lake.catalogObject(), 500));
    config.putAll(extra);
    return config;
  }

  /** {@link #upsertConfig} of a {@link CrashingUpsertSinkConnector}. */
  private static Map<String, String> crashingConfig(String topic, Map<String, String> hooks) {
    Map<String, String> config = upsertConfig(topic, hooks);
    config.put("connector.class", CrashingUpsertSinkConnector.class.getName());
    return config;
  }

  private static Map<String, String> changelogConfig(String topic, String controlTopic) {
    return ConnectorConfigs.changelogSink(
        topic,
        registry.url(),
        lake.catalogObject(),
        kafka.bootstrapServers(),
        controlTopic,
        1000,
        TopicNames.DEFAULTS.dlqTopicOfRecordsIn(topic));
  }

  private static void createTopic(String topic, int partitions) throws Exception {
    stack.createTopics(partitions, topic);
  }

  private static Admin admin() {
    return stack.admin();
  }
}
