package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.dlq.DlqFormat;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.tools.dlq.kafka.BrokerClients;
import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The monitor against a real KRaft broker: DLQ records written as the router writes them (its
 * {@code DlqRecordBuilder}, in transactions), ledger entries as the DLQ tools write them, a real
 * consumer group committing offsets; everything checked by scraping {@code /metrics} over HTTP.
 */
class PipelineMonitorIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String SOURCE = "it.cdc_lab.orders";
  private static final String DLQ = SOURCE + ".dlq";
  private static final String LEDGER = Ledger.topicFor(DLQ);
  private static final Map<String, String> DLQ_TAGS = Map.of("topic", SOURCE, "dlq_topic", DLQ);

  @TempDir static Path dir;
  private static EmbeddedKafka kafka;
  private static Admin admin;
  private static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"));
    admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
  }

  @AfterAll
  static void stop() {
    if (admin != null) {
      admin.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void backlogAgeAndRepairsFollowTheDlqAndItsLedger() throws Exception {
    createTopic(DLQ, 2);
    try (PipelineMonitor monitor = PipelineMonitor.start(settings());
        Producer<byte[], byte[]> router = transactionalProducer("it-router");
        Producer<byte[], byte[]> tools = plainProducer()) {
      await("the DLQ topic's series at 0")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                Scrape scrape = scrape(monitor);
                assertThat(scrape.sum("sluice_dlq_backlog_records", DLQ_TAGS)).isEqualTo(0);
                assertThat(handled(scrape, "repaired")).hasValue(0);
                assertThat(handled(scrape, "replayed")).hasValue(0);
                assertThat(status(monitor.healthUrl())).isEqualTo(200);
              });

      // The router gives a DLQ record the input's timestamp (two days ago here); the age must
      // come from the envelope's quarantined_at instead.
      Instant now = Instant.now();
      long producedMs = now.minus(Duration.ofDays(2)).toEpochMilli();
      router.beginTransaction();
      Coordinates a = quarantine(router, 0, original(0, 10), producedMs, now.minusSeconds(3600));
      Coordinates b = quarantine(router, 1, original(1, 20), producedMs, now.minusSeconds(600));
      quarantine(router, 1, original(1, 21), producedMs, now.minusSeconds(60));
      router.send(new ProducerRecord<>(DLQ, 0, null, bytes("not an envelope"))).get();
      router.commitTransaction();
      router.beginTransaction();
      quarantine(router, 0, original(0, 99), producedMs, now.minusSeconds(7200));
      router.abortTransaction();

      await("three unhandled DLQ records, one unreadable, none aborted")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                Scrape scrape = scrape(monitor);
                assertThat(scrape.sum("sluice_dlq_records", DLQ_TAGS)).isEqualTo(4);
                assertThat(scrape.sum("sluice_dlq_backlog_records", DLQ_TAGS)).isEqualTo(3);
                assertThat(unreadable(scrape, "envelope")).hasValue(1);
                assertThat(age(scrape)).isBetween(3600.0, 3700.0);
              });

      new BrokerClients(kafka.bootstrapServers()).ensureCompactedTopic(LEDGER);
      Ledger ledger = Ledger.empty(LEDGER);
      String aKey = Ledger.keyOf(a);
      tools
          .send(
              ledger.record(aKey, DlqFixtures.entry(LedgerEntry.Action.REPAIR, a, original(0, 10))))
          .get();
      // B replayed from an exported envelope: its ledger key names the original coordinates.
      tools
          .send(
              ledger.record(
                  DlqFixtures.fileLedgerKey(original(1, 20)),
                  DlqFixtures.entry(LedgerEntry.Action.REPLAY, null, original(1, 20))))
          .get();

      await("A repaired, B replayed: one left, a minute old")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                Scrape scrape = scrape(monitor);
                assertThat(scrape.sum("sluice_dlq_backlog_records", DLQ_TAGS)).isEqualTo(1);
                assertThat(handled(scrape, "repaired")).hasValue(1);
                assertThat(handled(scrape, "replayed")).hasValue(1);
                assertThat(age(scrape)).isBetween(60.0, 160.0);
              });
      assertThat(b.partition()).isEqualTo(1);

      tools.send(new ProducerRecord<>(LEDGER, bytes(aKey), null)).get();

      await("the tombstone takes A's repair back")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                Scrape scrape = scrape(monitor);
                assertThat(scrape.sum("sluice_dlq_backlog_records", DLQ_TAGS)).isEqualTo(2);
                assertThat(age(scrape)).isBetween(3600.0, 3700.0);
                assertThat(scrape.sum("sluice_dlq_records", DLQ_TAGS)).isEqualTo(4);
                assertThat(unreadable(scrape, "envelope")).hasValue(1);
                assertThat(handled(scrape, "repaired")).hasValue(1);
              });

      tools.send(new ProducerRecord<>(LEDGER, bytes("junk"), bytes("{\"ledger\": 0}"))).get();
      createTopic("it.other.table.dlq", 1);

      await("an unreadable ledger record is counted; a new DLQ topic is found")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                Scrape scrape = scrape(monitor);
                assertThat(unreadable(scrape, "ledger")).hasValue(1);
                assertThat(
                        scrape.value(
                            "sluice_dlq_backlog_records",
                            Map.of("topic", "it.other.table", "dlq_topic", "it.other.table.dlq")))
                    .hasValue(0);
              });
      double refreshedAt = lastRefresh(scrape(monitor));
      await("refreshes go on after the unreadable ledger record")
          .atMost(WAIT)
          .until(() -> lastRefresh(scrape(monitor)) > refreshedAt);
      Scrape scrape = scrape(monitor);
      assertThat(status(monitor.healthUrl())).isEqualTo(200);
      assertThat(scrape.value("sluice_monitor_refresh_failures_total", Map.of())).hasValue(0);
      assertThat(scrape.hasLabel("sluice_dlq_records", "dlq_topic", LEDGER))
          .as("a ledger is not watched as a DLQ")
          .isFalse();
    }
  }

  @Test
  void aZombiesSecondDlqRecordOfAnInputIsOneMoreRecordButNoSecondInput() throws Exception {
    String dlq = "it.zombie.orders.dlq";
    Map<String, String> tags = Map.of("topic", "it.zombie.orders", "dlq_topic", dlq);
    Coordinates input = new Coordinates("it.zombie.orders.clean", 0, 40);
    createTopic(dlq, 1);
    try (PipelineMonitor monitor = PipelineMonitor.start(settings());
        Producer<byte[], byte[]> sink = plainProducer()) {
      // A zombie task (0) and its successor (2) both quarantine the input before the fence.
      Instant now = Instant.now();
      RecordMetadata first = sinkQuarantine(sink, dlq, input, now.minusSeconds(600), 0);
      sinkQuarantine(sink, dlq, input, now.minusSeconds(590), 2);

      await("two DLQ records of one input, one in the backlog")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                Scrape scrape = scrape(monitor);
                assertThat(scrape.sum("sluice_dlq_records", tags)).isEqualTo(2);
                assertThat(scrape.sum("sluice_dlq_inputs", tags)).isEqualTo(1);
                assertThat(scrape.sum("sluice_dlq_backlog_records", tags)).isEqualTo(1);
              });

      Coordinates firstAt = new Coordinates(dlq, first.partition(), first.offset());
      new BrokerClients(kafka.bootstrapServers()).ensureCompactedTopic(Ledger.topicFor(dlq));
      Ledger ledger = Ledger.empty(Ledger.topicFor(dlq));
      sink.send(
              ledger.record(
                  Ledger.keyOf(firstAt),
                  DlqFixtures.entry(LedgerEntry.Action.REPLAY, firstAt, input)))
          .get();

      await("the replay of the first record handles both")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                Scrape scrape = scrape(monitor);
                assertThat(scrape.sum("sluice_dlq_backlog_records", tags)).isEqualTo(0);
                assertThat(scrape.sum("sluice_dlq_inputs", tags)).isEqualTo(1);
                assertThat(scrape.sum("sluice_dlq_records", tags)).isEqualTo(2);
              });
    }
  }

  @Test
  void aConsumerGroupsLagFallsToZeroAsItCommitsWhatItRead() throws Exception {
    String topic = "it.lag.clean";
    createTopic(topic, 2);
    try (Producer<byte[], byte[]> producer = transactionalProducer("it-lag-writer")) {
      // One transaction: 5 records per partition, then a commit marker at offset 5.
      producer.beginTransaction();
      for (int i = 0; i < 10; i++) {
        producer.send(new ProducerRecord<>(topic, i % 2, bytes("k" + i), bytes("v" + i)));
      }
      producer.commitTransaction();
    }
    Map<String, String> tags = Map.of("group", "it-sink", "topic", topic);
    try (PipelineMonitor monitor = PipelineMonitor.start(settings().withGroupPattern("it-sink"));
        KafkaConsumer<byte[], byte[]> sink = sinkConsumer("it-sink")) {
      List<TopicPartition> partitions =
          List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
      sink.assign(partitions);
      sink.commitSync(Map.of(partitions.get(0), new OffsetAndMetadata(2)));

      await("records 2..4 of partition 0 not committed")
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(scrape(monitor).value("sluice_consumer_group_lag_records", tags))
                      .hasValue(3));

      // Like the Iceberg sinks: commit the offset after the last record written, which leaves
      // each partition's commit marker behind.
      sink.seekToBeginning(partitions);
      Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
      List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
      await("the sink reads all 10 records")
          .atMost(WAIT)
          .until(
              () -> {
                sink.poll(Duration.ofMillis(200))
                    .forEach(
                        record -> {
                          read.add(record);
                          next.put(
                              new TopicPartition(record.topic(), record.partition()),
                              new OffsetAndMetadata(record.offset() + 1));
                        });
                return read.size() == 10;
              });
      sink.commitSync(next);
      assertThat(next.values()).extracting(OffsetAndMetadata::offset).containsOnly(5L);

      await("the lag falls to 0")
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(scrape(monitor).value("sluice_consumer_group_lag_records", tags))
                      .hasValue(0));
      assertThat(scrape(monitor).hasLabel("sluice_consumer_group_lag_records", "group", "other"))
          .isFalse();
    }
  }

  private static MonitorSettings settings() {
    return MonitorSettings.defaults(kafka.bootstrapServers())
        .withRefreshInterval(Duration.ofMillis(200));
  }

  private static Coordinates original(int partition, long offset) {
    return new Coordinates(SOURCE, partition, offset);
  }

  /** Writes the DLQ record of the poison record at {@code original}; its DLQ coordinates. */
  private static Coordinates quarantine(
      Producer<byte[], byte[]> router,
      int dlqPartition,
      Coordinates original,
      long producedMs,
      Instant quarantinedAt)
      throws Exception {
    ProducerRecord<byte[], byte[]> record =
        new ProducerRecord<>(
            DLQ,
            dlqPartition,
            producedMs,
            bytes("{\"order_id\":1}"),
            DlqFixtures.value(DlqFormat.ENVELOPE, original, producedMs, quarantinedAt),
            DlqFixtures.headers(original, producedMs));
    RecordMetadata at = router.send(record).get();
    return new Coordinates(DLQ, at.partition(), at.offset());
  }

  /** Writes the DLQ record the upsert sink's task {@code task} writes for {@code input}. */
  private static RecordMetadata sinkQuarantine(
      Producer<byte[], byte[]> sink, String dlq, Coordinates input, Instant at, int task)
      throws Exception {
    long producedMs = at.toEpochMilli();
    return sink.send(
            new ProducerRecord<>(
                dlq,
                null,
                producedMs,
                bytes("{\"order_id\":1}"),
                DlqFixtures.sinkValue(input, producedMs, at, task),
                DlqFixtures.sinkHeaders(input, producedMs, task)))
        .get();
  }

  private static OptionalDouble handled(Scrape scrape, String action) {
    Map<String, String> tags = new HashMap<>(DLQ_TAGS);
    tags.put("action", action);
    return scrape.value("sluice_dlq_records_handled_total", tags);
  }

  private static OptionalDouble unreadable(Scrape scrape, String kind) {
    Map<String, String> tags = new HashMap<>(DLQ_TAGS);
    tags.put("kind", kind);
    return scrape.value("sluice_dlq_unreadable_records_total", tags);
  }

  private static double age(Scrape scrape) {
    return scrape
        .value("sluice_dlq_oldest_unrepaired_age_seconds", DLQ_TAGS)
        .orElseThrow(() -> new AssertionError("no age series"));
  }

  private static double lastRefresh(Scrape scrape) {
    return scrape
        .value("sluice_monitor_last_refresh_timestamp_seconds", Map.of())
        .orElseThrow(() -> new AssertionError("no refresh yet"));
  }

  private static Scrape scrape(PipelineMonitor monitor) throws Exception {
    return Scrape.fetch(monitor.metricsUrl());
  }

  private static int status(String url) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static void createTopic(String topic, int partitions) throws Exception {
    admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
  }

  private static Producer<byte[], byte[]> transactionalProducer(String transactionalId) {
    KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                transactionalId),
            new ByteArraySerializer(),
            new ByteArraySerializer());
    producer.initTransactions();
    return producer;
  }

  private static Producer<byte[], byte[]> plainProducer() {
    return new KafkaProducer<>(
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
        new ByteArraySerializer(),
        new ByteArraySerializer());
  }

  private static KafkaConsumer<byte[], byte[]> sinkConsumer(String group) {
    return new KafkaConsumer<>(
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            kafka.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG,
            group,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest"),
        new ByteArrayDeserializer(),
        new ByteArrayDeserializer());
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
