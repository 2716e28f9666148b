package io.sluice.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.DlqHeaders;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.TopicReader;
import io.sluice.router.config.RouterConfig;
import io.sluice.router.testing.Orders;
import io.sluice.schema.avro.ScanPlan;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.server.DevSchemaRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The router on a real embedded KRaft broker and the real dev schema registry, exactly_once_v2,
 * three partitions: valid and poison records, a topic created while running, and a hard kill of a
 * router process mid-stream.
 */
class RouterIT {
  private static final int PARTITIONS = 3;

  @TempDir static Path dir;
  private static EmbeddedKafka kafka;
  private static DevSchemaRegistry registry;
  private static HttpSchemaRegistryClient schemas;
  private static Admin admin;
  private static KafkaProducer<byte[], byte[]> producer;

  @BeforeAll
  static void startStack() {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"));
    registry = DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0);
    schemas = HttpSchemaRegistryClient.create(registry.url());
    admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.LINGER_MS_CONFIG,
                5),
            new ByteArraySerializer(),
            new ByteArraySerializer());
  }

  @AfterAll
  static void stopStack() {
    if (producer != null) {
      producer.close(Duration.ofSeconds(5));
    }
    if (admin != null) {
      admin.close(Duration.ofSeconds(5));
    }
    if (registry != null) {
      registry.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void mixedStreamGoesToCleanAndDlqExactlyOnceKeepingPartitionsAndBytes() throws Exception {
    String topic = "mix.cdc_lab.orders";
    Ids ids = setUpTopic(topic, PARTITIONS);
    List<Sent> sent = new ArrayList<>();
    for (int n = 0; n < 150; n++) {
      // The last record of every partition is poison: committed offsets must move past it.
      sent.add(send(topic, PARTITIONS, ids, n, n % 7 == 3 || n >= 147));
    }
    producer.flush();

    try (Router router =
        new Router(new RouterConfig(routerProps("it-mix", "^mix\\.cdc_lab\\.[a-z]+$")))) {
      router.start();
      List<Sent> poison = sent.stream().filter(Sent::poison).toList();
      List<Sent> valid = sent.stream().filter(s -> !s.poison()).toList();

      List<ConsumerRecord<byte[], byte[]>> clean = awaitCommitted(topic + ".clean", valid.size());
      List<ConsumerRecord<byte[], byte[]>> dlq = awaitCommitted(topic + ".dlq", poison.size());

      Map<Integer, ConsumerRecord<byte[], byte[]>> cleanByN = byN(clean);
      assertThat(cleanByN).hasSize(valid.size());
      for (Sent s : valid) {
        ConsumerRecord<byte[], byte[]> out = cleanByN.get(s.n());
        assertThat(out.partition()).as("partition of record %d", s.n()).isEqualTo(s.partition());
        assertThat(out.key()).isEqualTo(s.key());
        assertThat(out.value()).isEqualTo(s.value());
      }
      Map<Integer, ConsumerRecord<byte[], byte[]>> dlqByN = byN(dlq);
      assertThat(dlqByN).hasSize(poison.size());
      for (Sent s : poison) {
        ConsumerRecord<byte[], byte[]> out = dlqByN.get(s.n());
        DlqEnvelope envelope = DlqEnvelope.fromJson(out.value());
        assertThat(envelope.originalValue()).isEqualTo(s.value());
        assertThat(envelope.originalKey()).isEqualTo(s.key());
        assertThat(envelope.originalTopic()).isEqualTo(topic);
        assertThat(envelope.originalPartition()).isEqualTo(s.partition());
        assertThat(header(out, DlqHeaders.ERRORS_PARTITION))
            .isEqualTo(String.valueOf(s.partition()));
        assertThat(header(out, DlqHeaders.ERROR_CODE)).isEqualTo(envelope.errorCode());
        assertThat(out.partition()).isEqualTo(s.partition());
      }

      await("router commits past the last (poison) record of every partition")
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> assertThat(committedOffsets("it-mix", topic)).isEqualTo(endOffsets(topic)));

      HttpResponse<String> metrics = httpGet(router.metricsUrl());
      assertThat(metrics.body())
          .contains("sluice_router_records_quarantined_total{error_code=\"NOT_AVRO_WIRE_FORMAT\"")
          .contains("sluice_router_records_validated_total{result=\"valid\",topic=\"" + topic)
          // Registered with validate.ahead off (the default) too, so dashboards show a rate of 0.
          .contains("sluice_router_records_validated_ahead_total")
          .contains("kafka_stream");
      assertThat(httpGet(router.healthUrl()).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aBacklogIsValidatedAheadOfTheStreamThread() throws Exception {
    String topic = "backlog.cdc_lab.orders";
    Ids ids = setUpTopic(topic, PARTITIONS);
    int records = 30_000;
    for (int n = 0; n < records; n++) {
      send(topic, PARTITIONS, ids, n, false);
    }
    producer.flush();

    Map<String, Object> props = routerProps("it-backlog", "^backlog\\.cdc_lab\\.[a-z]+$");
    // On, whatever this machine's processor count (off by default; auto validates from 3 on).
    props.put(RouterConfig.VALIDATE_AHEAD_CONFIG, true);
    try (Router router = new Router(new RouterConfig(props))) {
      router.start();
      assertThat(awaitCommitted(topic + ".clean", records)).hasSize(records);

      // The first poll waits for the stream thread to resolve the schemas; the polls after it are
      // validated ahead while the stream thread works through the records before them.
      assertThat(validatedAhead(httpGet(router.metricsUrl()).body()))
          .isPositive()
          .isLessThanOrEqualTo(records);
    }
  }

  /**
   * Past {@link ScanPlan#SCANS_BEFORE_COMPILING} records the topic's scan plans run as compiled
   * code; a value cut short must still reach the DLQ with the interpreter's error, and valid ones
   * the clean topic.
   */
  @Test
  void recordsAfterTheScanPlansAreCompiledAreJudgedAsBefore() throws Exception {
    String topic = "hot.cdc_lab.orders";
    Ids ids = setUpTopic(topic, PARTITIONS);
    int warm = 2 * ScanPlan.SCANS_BEFORE_COMPILING;
    for (int n = 0; n < warm; n++) {
      send(topic, PARTITIONS, ids, n, false);
    }
    producer.flush();

    try (Router router =
        new Router(new RouterConfig(routerProps("it-hot", "^hot\\.cdc_lab\\.[a-z]+$")))) {
      router.start();
      awaitCommitted(topic + ".clean", warm);

      List<Sent> truncated = new ArrayList<>();
      for (int n = warm; n < warm + 2 * PARTITIONS; n++) {
        if (n % 2 == 0) {
          byte[] value = Orders.wire(ids.value(), Orders.create(n));
          truncated.add(
              publish(
                  topic,
                  n % PARTITIONS,
                  n,
                  Orders.wire(ids.key(), Orders.key(n)),
                  Arrays.copyOf(value, value.length - 10),
                  true));
        } else {
          send(topic, PARTITIONS, ids, n, false);
        }
      }
      producer.flush();

      List<ConsumerRecord<byte[], byte[]>> dlq = awaitCommitted(topic + ".dlq", truncated.size());
      Map<Integer, ConsumerRecord<byte[], byte[]>> dlqByN = byN(dlq);
      assertThat(dlqByN).hasSize(truncated.size());
      for (Sent s : truncated) {
        DlqEnvelope envelope = DlqEnvelope.fromJson(dlqByN.get(s.n()).value());
        assertThat(envelope.errorCode()).isEqualTo("AVRO_DECODE_FAILED");
        assertThat(envelope.errorMessage()).contains("does not decode with its writer schema");
        assertThat(envelope.originalValue()).isEqualTo(s.value());
      }
      assertThat(awaitCommitted(topic + ".clean", warm + truncated.size()))
          .hasSize(warm + truncated.size());
    }
  }

  @Test
  void outputsWithFewerPartitionsTakeTheInputPartitionModuloTheirCount() throws Exception {
    String topic = "narrow.cdc_lab.orders";
    Ids ids = setUpTopic(topic, PARTITIONS);
    // Created by hand before the router starts: 1 clean partition, 2 DLQ partitions.
    admin
        .createTopics(
            List.of(
                new NewTopic(topic + ".clean", 1, (short) 1),
                new NewTopic(topic + ".dlq", 2, (short) 1)))
        .all()
        .get();
    List<Sent> sent = new ArrayList<>();
    for (int n = 0; n < 12; n++) {
      sent.add(send(topic, PARTITIONS, ids, n, n % 4 == 1));
    }
    producer.flush();

    try (Router router =
        new Router(new RouterConfig(routerProps("it-narrow", "^narrow\\.cdc_lab\\.[a-z]+$")))) {
      router.start();
      List<Sent> poison = sent.stream().filter(Sent::poison).toList();
      Map<Integer, ConsumerRecord<byte[], byte[]>> clean =
          byN(awaitCommitted(topic + ".clean", sent.size() - poison.size()));
      Map<Integer, ConsumerRecord<byte[], byte[]>> dlq =
          byN(awaitCommitted(topic + ".dlq", poison.size()));

      for (Sent s : sent) {
        if (s.poison()) {
          assertThat(dlq.get(s.n()).partition())
              .as("DLQ partition of record %d from partition %d", s.n(), s.partition())
              .isEqualTo(s.partition() % 2);
        } else {
          assertThat(clean.get(s.n()).partition()).isZero();
          assertThat(clean.get(s.n()).value()).isEqualTo(s.value());
        }
      }
      assertThat(poison).extracting(Sent::partition).contains(1, 2);
    }
  }

  @Test
  void topicCreatedWhileRunningIsRoutedWithinTenSeconds() throws Exception {
    try (Router router =
        new Router(new RouterConfig(routerProps("it-fresh", "^fresh\\.cdc_lab\\.[a-z]+$")))) {
      router.start();
      await("router running")
          .atMost(Duration.ofSeconds(30))
          .until(() -> router.state() == KafkaStreams.State.RUNNING);

      String topic = "fresh.cdc_lab.items";
      Ids ids = registerSchemas(topic);
      long created = System.nanoTime();
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
      Sent valid = send(topic, 2, ids, 1, false);
      Sent poison = send(topic, 2, ids, 2, true);
      producer.flush();

      await("record of a new topic on its .clean topic")
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> readCommitted(topic + ".clean").size() == 1);
      long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - created);
      assertThat(seconds).isLessThan(10);
      assertThat(readCommitted(topic + ".clean").get(0).value()).isEqualTo(valid.value());
      await("poison of a new topic on its .dlq topic")
          .atMost(Duration.ofSeconds(5))
          .until(() -> readCommitted(topic + ".dlq").size() == 1);
      assertThat(DlqEnvelope.fromJson(readCommitted(topic + ".dlq").get(0).value()).originalValue())
          .isEqualTo(poison.value());

      Map<String, TopicDescription> outputs =
          admin.describeTopics(List.of(topic + ".clean", topic + ".dlq")).allTopicNames().get();
      assertThat(outputs.values()).allSatisfy(d -> assertThat(d.partitions()).hasSize(2));
    }
  }

  @Test
  void retypedColumnRegisteredUnderNoneGoesToTheDlqAcrossARestart() throws Exception {
    String topic = "lineage.cdc_lab.orders";
    Ids ids = setUpTopic(topic, PARTITIONS);
    schemas.setCompatibility(topic + "-value", "NONE");
    Schema retyped = Orders.retyped(Orders.ENVELOPE, "amount_cents", "\"long\"", "\"string\"");
    int retypedId = schemas.register(topic + "-value", retyped);
    send(topic, PARTITIONS, ids, 0, false);
    Sent poison = sendRetyped(topic, ids, retyped, retypedId, 1);
    send(topic, PARTITIONS, ids, 2, false);
    producer.flush();

    String pattern = "^lineage\\.cdc_lab\\.[a-z]+$";
    try (Router router = new Router(new RouterConfig(routerProps("it-lineage", pattern)))) {
      router.start();
      awaitCommitted(topic + ".clean", 2);
      List<ConsumerRecord<byte[], byte[]>> dlq = awaitCommitted(topic + ".dlq", 1);
      DlqEnvelope envelope = DlqEnvelope.fromJson(dlq.get(0).value());
      assertThat(envelope.originalValue()).isEqualTo(poison.value());
      assertThat(envelope.errorCode()).isEqualTo("SCHEMA_INCOMPATIBLE");
      assertThat(envelope.errorMessage())
          .isEqualTo(
              "value schema "
                  + retypedId
                  + " of topic "
                  + topic
                  + " cannot follow schema "
                  + ids.value()
                  + " on the clean topic: field after.amount_cents changes long -> string, which"
                  + " Iceberg cannot evolve");
    }

    // A restarted router derives the same lineage from the registry.
    sendRetyped(topic, ids, retyped, retypedId, 3);
    send(topic, PARTITIONS, ids, 4, false);
    producer.flush();
    try (Router router = new Router(new RouterConfig(routerProps("it-lineage", pattern)))) {
      router.start();
      List<ConsumerRecord<byte[], byte[]>> clean = awaitCommitted(topic + ".clean", 3);
      List<ConsumerRecord<byte[], byte[]>> dlq = awaitCommitted(topic + ".dlq", 2);
      assertThat(byN(clean).keySet()).containsExactlyInAnyOrder(0, 2, 4);
      assertThat(byN(dlq).keySet()).containsExactlyInAnyOrder(1, 3);
    }
  }

  /** Order {@code n} as a create event of {@code retyped}, its amount_cents a string. */
  private static Sent sendRetyped(String topic, Ids ids, Schema retyped, int retypedId, int n) {
    GenericRecord original = Orders.create(n);
    Schema rowSchema = retyped.getField("after").schema().getTypes().get(1);
    GenericRecord row = new GenericData.Record(rowSchema);
    GenericRecord originalRow = (GenericRecord) original.get("after");
    for (Schema.Field field : rowSchema.getFields()) {
      row.put(field.name(), originalRow.get(field.name()));
    }
    row.put("amount_cents", String.valueOf(originalRow.get("amount_cents")));
    GenericRecord envelope = new GenericData.Record(retyped);
    for (Schema.Field field : retyped.getFields()) {
      envelope.put(field.name(), original.get(field.name()));
    }
    envelope.put("after", row);
    int partition = n % PARTITIONS;
    return publish(
        topic,
        partition,
        n,
        Orders.wire(ids.key(), Orders.key(n)),
        Orders.wire(retypedId, envelope),
        true);
  }

  @Test
  void hardKilledRouterRestartsWithoutDuplicatesOrASecondDlqRecord() throws Exception {
    String topic = "hard.cdc_lab.orders";
    Ids ids = setUpTopic(topic, PARTITIONS);
    Path props = dir.resolve("hard-router.properties");
    Properties routerProps = new Properties();
    routerProps.putAll(routerProps("it-hard", "^hard\\.cdc_lab\\.[a-z]+$"));
    try (OutputStream out = Files.newOutputStream(props)) {
      routerProps.store(out, "RouterIT hard stop");
    }

    int[] batches = {1000, 5000, 1000};
    int total = 0;
    total = produce(topic, ids, total, batches[0]);

    Process first = startRouterProcess(props, "first");
    Process second = null;
    try {
      await("first router process writes clean records")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(250))
          .until(() -> readCommitted(topic + ".clean").size() >= 300);
      total = produce(topic, ids, total, batches[1]);
      first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      // Offsets cannot move after the kill: what was not committed yet was in flight.
      long committed = sum(committedOffsets("it-hard", topic));
      assertThat(committed).as("killed mid-stream").isLessThan(sum(endOffsets(topic)));
      total = produce(topic, ids, total, batches[2]);

      second = startRouterProcess(props, "second");
      int expectedPoison = (int) IntStream.range(0, total).filter(RouterIT::isHardPoison).count();
      int expectedValid = total - expectedPoison;

      await("restarted router processes and commits everything")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () -> assertThat(committedOffsets("it-hard", topic)).isEqualTo(endOffsets(topic)));
      // The killed process may leave a transaction open on the outputs; read_committed readers
      // see past it once it is aborted (fenced, or after transaction.timeout.ms).
      await("outputs readable past the killed process's open transaction")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> readCommitted(topic + ".clean").size() >= expectedValid);

      List<ConsumerRecord<byte[], byte[]>> clean = readCommitted(topic + ".clean");
      List<ConsumerRecord<byte[], byte[]>> dlq = readCommitted(topic + ".dlq");
      assertThat(countByN(clean).values()).as("copies per clean record").allMatch(c -> c == 1);
      assertThat(countByN(dlq).values()).as("DLQ records per poison").allMatch(c -> c == 1);
      assertThat(clean).hasSize(expectedValid);
      assertThat(dlq).hasSize(expectedPoison);
    } finally {
      first.destroyForcibly();
      if (second != null) {
        second.destroy();
        if (!second.waitFor(30, TimeUnit.SECONDS)) {
          second.destroyForcibly();
        }
      }
    }
  }

  /** Produces records {@code from .. from+count-1} and returns the next id. */
  private static int produce(String topic, Ids ids, int from, int count) {
    for (int n = from; n < from + count; n++) {
      send(topic, PARTITIONS, ids, n, isHardPoison(n));
    }
    producer.flush();
    return from + count;
  }

  private static long sum(Map<TopicPartition, Long> offsets) {
    return offsets.values().stream().mapToLong(Long::longValue).sum();
  }

  private static boolean isHardPoison(int n) {
    return n % 11 == 5;
  }

  /** A record as produced: its id {@code n} is in header "n" and in the key. */
  private record Sent(int n, int partition, byte[] key, byte[] value, boolean poison) {}

  private record Ids(int value, int key) {}

  private static Ids setUpTopic(String topic, int partitions)
      throws ExecutionException, InterruptedException {
    admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    return registerSchemas(topic);
  }

  private static Ids registerSchemas(String topic) {
    return new Ids(
        schemas.register(topic + "-value", Orders.ENVELOPE),
        schemas.register(topic + "-key", Orders.KEY));
  }

  private static Sent send(String topic, int partitions, Ids ids, int n, boolean poison) {
    int partition = n % partitions;
    byte[] key = Orders.wire(ids.key(), Orders.key(n));
    byte[] value =
        poison
            ? ("{\"id\":" + n + ",\"status\":\"NEW\"}").getBytes(StandardCharsets.UTF_8)
            : Orders.wire(ids.value(), Orders.create(n));
    return publish(topic, partition, n, key, value, poison);
  }

  private static Sent publish(
      String topic, int partition, int n, byte[] key, byte[] value, boolean poison) {
    RecordHeaders headers = new RecordHeaders();
    headers.add("n", String.valueOf(n).getBytes(StandardCharsets.UTF_8));
    producer.send(new ProducerRecord<>(topic, partition, null, key, value, headers));
    return new Sent(n, partition, key, value, poison);
  }

  /** The value of {@code sluice_router_records_validated_ahead_total} on a /metrics page. */
  private static double validatedAhead(String metrics) {
    return metrics
        .lines()
        .filter(line -> line.startsWith("sluice_router_records_validated_ahead_total "))
        .mapToDouble(line -> Double.parseDouble(line.substring(line.indexOf(' ') + 1)))
        .findFirst()
        .orElse(0);
  }

  private static Map<String, Object> routerProps(String applicationId, String pattern) {
    Map<String, Object> props = new HashMap<>();
    props.put(RouterConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(RouterConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.url());
    props.put(RouterConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(RouterConfig.STATE_DIR_CONFIG, dir.resolve("state-" + applicationId).toString());
    props.put(RouterConfig.INPUT_TOPIC_PATTERN_CONFIG, pattern);
    props.put(RouterConfig.REGISTRY_RETRY_TIMEOUT_MS_CONFIG, "5000");
    props.put(RouterConfig.CLOSE_TIMEOUT_MS_CONFIG, "10000");
    // A killed router's open transaction blocks read_committed readers until it times out.
    props.put("streams.producer.transaction.timeout.ms", "10000");
    // The killed member leaves the group when its session expires.
    props.put("streams.consumer.session.timeout.ms", "6000");
    props.put("streams.consumer.heartbeat.interval.ms", "1000");
    return props;
  }

  private static Process startRouterProcess(Path props, String name) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder builder =
        new ProcessBuilder(
            java,
            "-Xmx256m",
            "-cp",
            System.getProperty("java.class.path"),
            RouterMain.class.getName(),
            props.toString());
    builder.redirectErrorStream(true);
    builder.redirectOutput(dir.resolve("router-" + name + ".log").toFile());
    return builder.start();
  }

  /** Waits until {@code count} records are committed on {@code topic}, and returns them. */
  private static List<ConsumerRecord<byte[], byte[]>> awaitCommitted(String topic, int count) {
    List<List<ConsumerRecord<byte[], byte[]>>> result = new ArrayList<>();
    await(count + " committed records on " + topic)
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              List<ConsumerRecord<byte[], byte[]>> records = readCommitted(topic);
              result.add(0, records);
              return records.size() >= count;
            });
    return result.get(0);
  }

  /** Every committed record of {@code topic}, read with read_committed up to the LSO. */
  private static List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
    return TopicReader.readCommitted(kafka.bootstrapServers(), topic);
  }

  private static Map<TopicPartition, Long> committedOffsets(String group, String topic)
      throws ExecutionException, InterruptedException {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    return offsets.entrySet().stream()
        .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
  }

  private static Map<TopicPartition, Long> endOffsets(String topic)
      throws ExecutionException, InterruptedException {
    int partitions =
        admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
    Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
    for (int p = 0; p < partitions; p++) {
      specs.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    return admin.listOffsets(specs).all().get().entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
  }

  private static Map<Integer, ConsumerRecord<byte[], byte[]>> byN(
      List<ConsumerRecord<byte[], byte[]>> records) {
    Map<Integer, ConsumerRecord<byte[], byte[]>> byN = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      byN.put(Integer.parseInt(header(record, "n")), record);
    }
    return byN;
  }

  private static Map<Integer, Integer> countByN(List<ConsumerRecord<byte[], byte[]>> records) {
    Map<Integer, Integer> counts = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      counts.merge(Integer.parseInt(header(record, "n")), 1, Integer::sum);
    }
    return counts;
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static HttpResponse<String> httpGet(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
