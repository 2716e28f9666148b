package io.sluice.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.RecordCollector;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TaskOutput} calls Kafka Streams internals, which may change in any release. These tests
 * pin what it relies on, against the Kafka Streams on the classpath, and fail naming TaskOutput and
 * what to re-check when an upgrade changes any of it.
 */
class TaskOutputInternalsTest {
  /** Set by surefire from the parent pom's {@code kafka.version} (router/pom.xml). */
  private static final String PINNED_VERSION_PROPERTY = "sluice.kafka.version";

  private static final String RECHECK =
      "TaskOutput (router) writes through Kafka Streams internals (RecordCollector,"
          + " InternalProcessorContext). Re-check it against this Kafka Streams' SinkNode and"
          + " RecordCollectorImpl: records must still join the task's transaction, reach the"
          + " production exception handler and be counted per topic; or replace it with a sink"
          + " node (TopicNameExtractor + StreamPartitioner). Then update the list of classes"
          + " using Kafka internals next to kafka.version in the parent pom.";

  private static final String INPUT = "in";
  private static final String OUTPUT = "out";
  private static final String NODE = "task-output-writer";
  private static final int OUTPUT_PARTITION = 5;

  private TopologyTestDriver driver;

  @AfterEach
  void close() {
    if (driver != null) {
      driver.close();
    }
  }

  @Test
  void kafkaOnTheClasspathIsTheVersionTheParentPomPins() throws IOException {
    String pinned = System.getProperty(PINNED_VERSION_PROPERTY);
    assertThat(pinned)
        .as(
            "system property %s (the parent pom's kafka.version, set by router/pom.xml's"
                + " surefire configuration); run this test through Maven",
            PINNED_VERSION_PROPERTY)
        .isNotBlank();

    assertThat(jarVersion(RecordCollector.class, "kafka/kafka-streams-version.properties"))
        .as("kafka-streams on the classpath; the checks here hold for %s only. %s", pinned, RECHECK)
        .isEqualTo(pinned);
    assertThat(jarVersion(Headers.class, "kafka/kafka-version.properties"))
        .as("kafka-clients on the classpath, whose producer the collector sends with. %s", RECHECK)
        .isEqualTo(pinned);
  }

  @Test
  void theCollectorAndTheSendOverloadTaskOutputCallsAreUnchanged() {
    assertThat(RecordCollector.Supplier.class.isInterface())
        .as("RecordCollector.Supplier is an interface. %s", RECHECK)
        .isTrue();
    Method recordCollector = method(RecordCollector.Supplier.class, "recordCollector");
    assertThat(recordCollector.getReturnType())
        .as("RecordCollector.Supplier.recordCollector() returns a RecordCollector. %s", RECHECK)
        .isEqualTo(RecordCollector.class);

    Method send =
        method(
            RecordCollector.class,
            "send",
            String.class,
            Object.class,
            Object.class,
            Headers.class,
            Integer.class,
            Long.class,
            Serializer.class,
            Serializer.class,
            String.class,
            InternalProcessorContext.class);
    assertThat(send.getReturnType())
        .as(
            "RecordCollector.send(topic, key, value, headers, partition, ...) returns void. %s",
            RECHECK)
        .isEqualTo(void.class);

    assertThat(ProcessorContext.class.isAssignableFrom(InternalProcessorContext.class))
        .as("InternalProcessorContext extends the ProcessorContext processors get. %s", RECHECK)
        .isTrue();
  }

  @Test
  void theContextKafkaStreamsGivesProcessorsSuppliesTheCollector() {
    // The context of an active task (StreamThread and TopologyTestDriver alike); TaskOutput.of
    // refuses any other.
    String name = "org.apache.kafka.streams.processor.internals.ProcessorContextImpl";
    Class<?> context;
    try {
      context = Class.forName(name);
    } catch (ClassNotFoundException e) {
      throw new AssertionError(name + " is gone. " + RECHECK, e);
    }
    assertThat(RecordCollector.Supplier.class.isAssignableFrom(context))
        .as("%s implements RecordCollector.Supplier. %s", name, RECHECK)
        .isTrue();
    assertThat(InternalProcessorContext.class.isAssignableFrom(context))
        .as("%s implements InternalProcessorContext. %s", name, RECHECK)
        .isTrue();
  }

  @Test
  void recordsWrittenThroughTaskOutputArriveWithKeyValueHeadersPartitionAndTimestampUnchanged() {
    start();
    byte[] key = {1, 2, 3};
    byte[] value = "value".getBytes(StandardCharsets.UTF_8);
    long timestamp = 1_764_000_000_000L;
    TestInputTopic<byte[], byte[]> input =
        driver.createInputTopic(INPUT, new ByteArraySerializer(), new ByteArraySerializer());

    input.pipeInput(new TestRecord<>(key, value, headers(), timestamp));

    ProducerRecord<byte[], byte[]> out = readProducerRecord(OUTPUT);
    assertThat(out).as("a record on %s. %s", OUTPUT, RECHECK).isNotNull();
    assertThat(out.key()).isEqualTo(key);
    assertThat(out.value()).isEqualTo(value);
    assertThat(out.headers().toArray()).containsExactly(headers().toArray());
    assertThat(out.partition()).as("partition. %s", RECHECK).isEqualTo(OUTPUT_PARTITION);
    assertThat(out.timestamp()).isEqualTo(timestamp);
  }

  @Test
  void recordsWrittenThroughTaskOutputAreCountedPerTopicAsASinkNodesAre() {
    start();
    TestInputTopic<byte[], byte[]> input =
        driver.createInputTopic(INPUT, new ByteArraySerializer(), new ByteArraySerializer());
    TestOutputTopic<byte[], byte[]> output =
        driver.createOutputTopic(OUTPUT, new ByteArrayDeserializer(), new ByteArrayDeserializer());

    input.pipeInput(new byte[] {1}, new byte[] {1});
    input.pipeInput(new byte[] {2}, new byte[] {2});

    assertThat(output.readValuesToList()).hasSize(2);
    assertThat(topicMetric("records-produced-total"))
        .as("Kafka Streams' records-produced-total of topic %s, node %s. %s", OUTPUT, NODE, RECHECK)
        .isEqualTo(2.0);
  }

  @Test
  void aContextThatIsNotKafkaStreamsOwnIsRefusedNamingTheProcessor() {
    assertThatThrownBy(() -> TaskOutput.of(new MockProcessorContext<>(), NODE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("processor " + NODE)
        .hasMessageContaining(MockProcessorContext.class.getName());
  }

  /** A topology whose one processor writes every input record to partition 5 of "out". */
  private void start() {
    Topology topology = new Topology();
    topology.addSource("source", new ByteArrayDeserializer(), new ByteArrayDeserializer(), INPUT);
    topology.addProcessor(NODE, Writer::new, "source");
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "task-output-internals-test");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver = new TopologyTestDriver(topology, props);
  }

  private static final class Writer implements Processor<byte[], byte[], Void, Void> {
    private TaskOutput output;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
      output = TaskOutput.of(context, NODE);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
      output.send(
          OUTPUT,
          OUTPUT_PARTITION,
          record.key(),
          record.value(),
          record.headers(),
          record.timestamp());
    }
  }

  private static Headers headers() {
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace", "abc".getBytes(StandardCharsets.UTF_8));
    headers.add("empty", null);
    return headers;
  }

  /**
   * The next record the driver's producer got for {@code topic}, partition included: {@code
   * TestOutputTopic} drops the partition, so this reads the driver's package-private {@code
   * readRecord(String)}.
   */
  @SuppressWarnings("unchecked")
  private ProducerRecord<byte[], byte[]> readProducerRecord(String topic) {
    Method readRecord;
    try {
      readRecord = TopologyTestDriver.class.getDeclaredMethod("readRecord", String.class);
      readRecord.setAccessible(true);
      return (ProducerRecord<byte[], byte[]>) readRecord.invoke(driver, topic);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(
          "TopologyTestDriver.readRecord(String), through which this test sees the partition"
              + " TaskOutput wrote to, changed in kafka-streams-test-utils; find another way to"
              + " read it",
          e);
    }
  }

  private double topicMetric(String name) {
    for (Map.Entry<MetricName, ? extends Metric> entry : driver.metrics().entrySet()) {
      MetricName metric = entry.getKey();
      if (metric.name().equals(name)
          && OUTPUT.equals(metric.tags().get("topic"))
          && NODE.equals(metric.tags().get("processor-node-id"))) {
        return ((Number) entry.getValue().metricValue()).doubleValue();
      }
    }
    throw new AssertionError(
        "no metric " + name + " for topic " + OUTPUT + " and node " + NODE + ". " + RECHECK);
  }

  private static Method method(Class<?> type, String name, Class<?>... parameters) {
    try {
      return type.getMethod(name, parameters);
    } catch (NoSuchMethodException e) {
      throw new AssertionError(
          type.getName()
              + "."
              + name
              + " with the parameters TaskOutput passes is gone. "
              + RECHECK,
          e);
    }
  }

  /** The version in {@code resource} of the jar {@code type} was loaded from. */
  private static String jarVersion(Class<?> type, String resource) throws IOException {
    URL jar = type.getProtectionDomain().getCodeSource().getLocation();
    // No parent: the resource of that jar, not the first one on the classpath.
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar}, null);
        InputStream in = loader.getResourceAsStream(resource)) {
      if (in == null) {
        throw new AssertionError(jar + " has no " + resource + ". " + RECHECK);
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    }
  }
}
