package io.sluice.bench.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.lake.offsets.IcebergOffsets;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.stack.workload.OrdersAvro;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The limit on a real broker, registry and SQLite catalog: a small stream read back in one thread,
 * applied with the upsert sink's writers, leaves the table the model says, at a positive rate.
 */
class SinkLimitIT {
  private static final String TOPIC = "broker.cdc_lab.orders.clean";
  private static final int KEYS = 200;
  private static final int BACKLOG = 3_000;

  private static SinkStack stack;
  private static ChangeStream stream;
  private static Map<Integer, Long> preloadEnds;
  private static Map<Integer, Long> backlogEnds;

  @BeforeAll
  static void produce() {
    stack = SinkStack.start("sluice-limit-it", 100, line -> {});
    stack.createTopic(TOPIC, 3);
    OrdersAvro orders = stack.registerOrders(TOPIC);
    stream = new ChangeStream(7, KEYS, 0.1);
    try (KafkaProducer<byte[], byte[]> kafka = stack.producer()) {
      ChangeProducer producer = new ChangeProducer(kafka, orders, TOPIC, new SendLog());
      long[] next = {0};
      producer.produce(() -> stream.next(++next[0]), KEYS, Pacing.unpaced());
      preloadEnds = producer.sends().ends();
      producer.produce(stream::next, BACKLOG, Pacing.unpaced());
      backlogEnds = producer.sends().ends();
    }
  }

  @AfterAll
  static void stop() {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void aBacklogTooLargeToMergeGoesByPositionAndLeavesTheModelsTable() {
    Map<String, Long> modes = run("orders_positions", Map.of("maintenance.merge.max-bytes", "0"));

    assertThat(modes).containsOnlyKeys("position-deletes");
  }

  @Test
  void aSmallTableIsMergedAtCommitAsTheSinkDoes() {
    Map<String, Long> modes = run("orders_merged", Map.of());

    assertThat(modes).containsKey("merge");
  }

  /** Runs the limit into {@code table}; returns its snapshots by commit mode. */
  private static Map<String, Long> run(String table, Map<String, String> sinkSettings) {
    TableIdentifier id = TableIdentifier.of("cdc_lab", table);
    Map<String, String> config =
        new HashMap<>(
            ConnectorConfigs.upsertSink(TOPIC, stack.registryUrl(), stack.catalog(), 100));
    config.put("name", "limit-" + table);
    config.putAll(sinkSettings);
    try (SinkLimit limit =
        new SinkLimit(
            stack.bootstrapServers(),
            TOPIC,
            HttpSchemaRegistryClient.create(stack.registryUrl()),
            stack.lake().catalog(),
            id,
            EnvelopeRowsTest.ORDERS,
            config)) {
      SinkLimit.Pass preload = limit.apply(Map.of(), preloadEnds);
      SinkLimit.Pass backlog = limit.apply(preloadEnds, backlogEnds);

      assertThat(preload.records()).isEqualTo(KEYS);
      assertThat(backlog.records()).isEqualTo(BACKLOG);
      assertThat(backlog.commits()).isPositive();
      assertThat(backlog.elapsedNanos()).isPositive();
      assertThat(backlog.stages().cpuMs()).isPositive();
      assertThat(
              new SinkBenchResult.Throughput(
                      backlog.records(), backlog.elapsedNanos() / 1_000_000, backlog.commits())
                  .recordsPerSecond())
          .isPositive();
      assertThat(backlog.stages().otherMs())
          .as("the stages are parts of the thread's CPU time: %s", backlog.stages())
          .isBetween(0L, backlog.stages().cpuMs());
      Table written = stack.lake().catalog().loadTable(id);
      TableCheck check = TableCheck.of(written, stream.live());
      assertThat(check.passed()).as("the limit's table against the model: %s", check).isTrue();
      assertThat(check.rows()).isPositive();
      List<TopicPartition> partitions = new ArrayList<>();
      backlogEnds.keySet().forEach(p -> partitions.add(new TopicPartition(TOPIC, p)));
      Map<TopicPartition, Long> expected = new HashMap<>();
      backlogEnds.forEach((p, end) -> expected.put(new TopicPartition(TOPIC, p), end));
      assertThat(IcebergOffsets.of(written, "limit-" + table, partitions))
          .as("the offsets the limit's last commit recorded, as the sink records them")
          .isEqualTo(expected);
      return limit.commitModes();
    }
  }
}
