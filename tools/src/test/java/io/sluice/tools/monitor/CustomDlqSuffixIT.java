package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.contract.ReadyFile;
import io.sluice.contract.TopicNames;
import io.sluice.dlq.DlqFormat;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.tools.cli.OperatorCli;
import io.sluice.tools.dlq.kafka.Coordinates;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A router running with {@code dlq.topic.suffix=.quarantine}, as the operator's tools see it
 * through the ready file the stack writes ({@code topics}), against a real KRaft broker: {@code
 * sluice dlq list} without {@code --dlq-topic} finds its DLQ topics, {@code --table} resolves one,
 * a command on records without a topic names them, and the monitor watches them with the input
 * topic as {@code topic}. A topic ending with {@code .dlq} is then no DLQ topic to any of them.
 */
class CustomDlqSuffixIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final TopicNames NAMES = TopicNames.of(".clean", ".quarantine");
  private static final String ORDERS = "it.shop.orders";
  private static final String ORDERS_DLQ = NAMES.dlqTopic(ORDERS);
  private static final String CUSTOMERS_DLQ = NAMES.dlqTopic("it.shop.customers");
  private static final String NOT_A_DLQ = TopicNames.DEFAULTS.dlqTopic(ORDERS);

  @TempDir static Path dir;
  private static EmbeddedKafka kafka;
  private static Path readyFile;

  @BeforeAll
  static void start() throws Exception {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"));
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(ORDERS_DLQ, 2, (short) 1),
                  new NewTopic(CUSTOMERS_DLQ, 1, (short) 1),
                  new NewTopic(NOT_A_DLQ, 1, (short) 1)))
          .all()
          .get();
    }
    try (KafkaProducer<byte[], byte[]> router =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                "it-router"),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      router.initTransactions();
      router.beginTransaction();
      quarantine(router, ORDERS_DLQ, 0, new Coordinates(ORDERS, 0, 10));
      quarantine(router, ORDERS_DLQ, 1, new Coordinates(ORDERS, 1, 20));
      quarantine(router, NOT_A_DLQ, 0, new Coordinates(ORDERS, 0, 30));
      router.commitTransaction();
    }
    readyFile = dir.resolve("ready.json");
    new ReadyFile(readyFile)
        .write(
            Map.of(
                ReadyFile.BOOTSTRAP_SERVERS,
                kafka.bootstrapServers(),
                ReadyFile.TOPICS,
                ReadyFile.topics(NAMES)));
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void dlqListWithoutATopicFindsTheDlqTopicsOfTheReadyFilesSuffix() {
    Run run = sluice("dlq", "list", "--ready-file", readyFile.toString());

    assertThat(run.exit).as(run.err).isZero();
    assertThat(run.out.lines().toList())
        .containsExactly(
            "DLQ_TOPIC                     INPUT_TOPIC        RECORDS  INPUTS  UNHANDLED",
            "it.shop.customers.quarantine  it.shop.customers  0        0       0",
            "it.shop.orders.quarantine     it.shop.orders     2        2       2",
            "2 DLQ topic(s) (suffix .quarantine) on "
                + kafka.bootstrapServers()
                + "; list the inputs of one with --dlq-topic TOPIC or --table DB.TABLE");
  }

  @Test
  void tableResolvesTheDlqTopicAndACommandOnRecordsWithoutOneNamesThem() {
    Run list =
        sluice("dlq", "list", "--ready-file", readyFile.toString(), "--table", "shop.orders");
    Run replay = sluice("dlq", "replay", "--all", "--ready-file", readyFile.toString());

    assertThat(list.exit).as(list.err).isZero();
    assertThat(list.out)
        .contains(ORDERS + "-0@10", ORDERS + "-1@20")
        .contains("2 input(s) in " + ORDERS_DLQ + " (2 DLQ record(s))")
        .doesNotContain(ORDERS + "-0@30");
    assertThat(replay.exit).isEqualTo(2);
    assertThat(replay.err)
        .contains(
            "DLQ topics (suffix .quarantine) on "
                + kafka.bootstrapServers()
                + ": "
                + CUSTOMERS_DLQ
                + ", "
                + ORDERS_DLQ);
  }

  @Test
  void theMonitorWatchesTheDlqTopicsOfTheReadyFilesSuffixUnderTheirInputTopic() throws Exception {
    MonitorCommand command = new MonitorCommand();
    new CommandLine(command)
        .parseArgs("--ready-file", readyFile.toString(), "--no-iceberg", "--interval", "0.2");
    MonitorSettings settings = command.settings();
    assertThat(settings.topicNames()).isEqualTo(NAMES);

    try (PipelineMonitor monitor = PipelineMonitor.start(settings)) {
      await("the .quarantine topics' series")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                Scrape scrape = Scrape.fetch(monitor.metricsUrl());
                assertThat(
                        scrape.sum(
                            "sluice_dlq_records", Map.of("topic", ORDERS, "dlq_topic", ORDERS_DLQ)))
                    .isEqualTo(2);
                assertThat(
                        scrape.sum(
                            "sluice_dlq_backlog_records",
                            Map.of("topic", ORDERS, "dlq_topic", ORDERS_DLQ)))
                    .isEqualTo(2);
                assertThat(
                        scrape.value(
                            "sluice_dlq_oldest_unrepaired_age_seconds",
                            Map.of("topic", "it.shop.customers", "dlq_topic", CUSTOMERS_DLQ)))
                    .hasValue(0);
              });
      Scrape scrape = Scrape.fetch(monitor.metricsUrl());
      assertThat(scrape.hasLabel("sluice_dlq_records", "dlq_topic", NOT_A_DLQ))
          .as("a .dlq topic is no DLQ topic of this router")
          .isFalse();
    }
  }

  private static void quarantine(
      KafkaProducer<byte[], byte[]> router, String dlq, int partition, Coordinates original)
      throws Exception {
    long producedMs = Instant.now().minusSeconds(60).toEpochMilli();
    router
        .send(
            new ProducerRecord<>(
                dlq,
                partition,
                producedMs,
                "{\"order_id\":1}".getBytes(StandardCharsets.UTF_8),
                DlqFixtures.value(DlqFormat.ENVELOPE, original, producedMs, Instant.now()),
                DlqFixtures.headers(original, producedMs)))
        .get();
  }

  private record Run(int exit, String out, String err) {}

  /** The shippable {@code sluice} command line, as an operator runs it. */
  private static Run sluice(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = OperatorCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }
}
