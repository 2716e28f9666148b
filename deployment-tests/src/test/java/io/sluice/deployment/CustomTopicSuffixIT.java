package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.contract.ReadyFile;
import io.sluice.dlq.DlqEnvelope;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.stack.EmbeddedStack;
import io.sluice.stack.StackLayout;
import io.sluice.stack.StackOptions;
import io.sluice.stack.workload.OrderRow;
import io.sluice.stack.workload.OrdersAvro;
import io.sluice.tools.cli.OperatorCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * One setting of the DLQ suffix reaches every component: the stack started as {@code sluice up
 * --router-config dlq.topic.suffix=.quarantine} starts it. A poison record the router refuses and
 * one the upsert sink cannot write both land in {@code <topic>.quarantine}; {@code sluice dlq list}
 * without {@code --dlq-topic} finds that topic through the ready file; the monitor's series, which
 * the DLQ dashboard selects by their {@code topic} label, count both records under the input topic.
 */
class CustomTopicSuffixIT {
  private static final String SUFFIX = ".quarantine";
  private static final Duration WAIT = Duration.ofMinutes(2);

  @TempDir Path tmp;

  @Test
  void aDlqSuffixSetOnTheRouterIsWhereTheSinkTheToolsAndTheMonitorLook() throws Exception {
    Path ready = tmp.resolve("ready.json");
    StackOptions options =
        StackOptions.in(tmp.resolve("data"))
            .withReadyFile(ready)
            .withComponentConfig(Map.of("dlq.topic.suffix", SUFFIX), Map.of());
    StackLayout layout = options.layout();
    String main = layout.mainTopic();
    String quarantine = main + SUFFIX;
    assertThat(layout.dlqTopic()).isEqualTo(quarantine);

    try (EmbeddedStack stack = new EmbeddedStack(options).start()) {
      assertThat(new ReadyFile(ready).read())
          .containsEntry(ReadyFile.ROUTER_CONFIG, Map.of("dlq.topic.suffix", SUFFIX));
      assertThat(stack.connectClient().connectorConfig(layout.upsertSink()))
          .containsEntry("dlq.topic.suffix", SUFFIX);

      // A record the router refuses (no Avro), and one that passes it but the upsert sink cannot
      // write (a truncate event with neither image), produced onto the clean topic directly.
      OrdersAvro avro =
          OrdersAvro.register(
              HttpSchemaRegistryClient.create(stack.schemaRegistryUrl()), "it-suffix");
      GenericRecord unwritable =
          OrdersAvro.envelope(
              "c", null, new OrderRow(900_001, "it-suffix", 1, 100, "NEW", 1, 1, 1));
      unwritable.put("op", "t");
      unwritable.put("after", null);
      try (KafkaProducer<byte[], byte[]> producer = producer(stack.bootstrapServers())) {
        producer
            .send(
                new ProducerRecord<>(
                    main,
                    "k".getBytes(StandardCharsets.UTF_8),
                    "{\"not\":\"avro\"}".getBytes(StandardCharsets.UTF_8)))
            .get();
        producer
            .send(
                new ProducerRecord<>(
                    layout.cleanTopic(), avro.key(900_001), avro.value(unwritable)))
            .get();
      }

      List<DlqEnvelope> quarantined = new ArrayList<>();
      await("the router's and the sink's quarantine in " + quarantine)
          .atMost(WAIT)
          .until(
              () -> {
                quarantined.clear();
                quarantined.addAll(read(stack.bootstrapServers(), quarantine));
                return quarantined.size() >= 2;
              });
      assertThat(quarantined).extracting(DlqEnvelope::originalTopic).contains(main);
      assertThat(quarantined)
          .filteredOn(e -> e.originalTopic().equals(layout.cleanTopic()))
          .extracting(DlqEnvelope::errorCode)
          .containsExactly("SINK_CONVERSION_FAILED");
      try (Admin admin =
          Admin.create(
              Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
        assertThat(admin.listTopics().names().get())
            .as("no topic under the default suffix")
            .doesNotContain(main + ".dlq");
      }

      StringWriter out = new StringWriter();
      CommandLine cli = OperatorCli.commandLine();
      cli.setOut(new PrintWriter(out, true));
      int exit = cli.execute("dlq", "list", "--ready-file", ready.toString());
      assertThat(exit).as("sluice dlq list; its output:%n%s", out).isZero();
      assertThat(out.toString()).contains(quarantine);

      String monitor = stack.monitorMetricsUrl();
      await("the monitor counts both records under " + main)
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(dlqRecordSeries(get(monitor), main))
                      .as("sluice_dlq_records of %s", main)
                      .contains("stage=\"router\"", "stage=\"sink\""));
    }
  }

  /** The stages of the {@code sluice_dlq_records} series of {@code topic}, one entry each. */
  private static Set<String> dlqRecordSeries(String exposition, String topic) {
    Set<String> stages = new java.util.TreeSet<>();
    for (String line : exposition.split("\n")) {
      if (line.startsWith("sluice_dlq_records{")
          && line.contains("topic=\"" + topic + "\"")
          && line.contains("dlq_topic=\"" + topic + SUFFIX + "\"")) {
        java.util.regex.Matcher m =
            java.util.regex.Pattern.compile("stage=\"[^\"]*\"").matcher(line);
        if (m.find()) {
          stages.add(m.group());
        }
      }
    }
    return stages;
  }

  private static List<DlqEnvelope> read(String bootstrap, String topic) {
    List<DlqEnvelope> envelopes = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed"),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          envelopes.add(DlqEnvelope.fromJson(r.value()));
        }
      }
    }
    return envelopes;
  }

  private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
    return new KafkaProducer<>(
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        new ByteArraySerializer(),
        new ByteArraySerializer());
  }

  private static String get(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
