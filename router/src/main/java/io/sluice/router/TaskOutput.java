package io.sluice.router;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.RecordCollector;

/**
 * Writes a processor's output records straight to its task's record collector, to a topic and
 * partition of its choosing: the collector a sink node would use, so records join the task's
 * transaction (exactly_once_v2), the production exception handler sees failed sends, and Kafka
 * Streams counts them per topic as for any sink.
 *
 * <p>Why not a sink node: a sink that picks its topic per record and keeps the input partition
 * needs a {@code TopicNameExtractor} and a {@code StreamPartitioner}, and Kafka Streams then asks
 * the producer for the topic's partitions, the partitioner for a set of partitions, and builds a
 * record context for the extractor, on every record, one node further down. Writing through the
 * collector spares the stream thread that per-record work (docs/benchmarks.md). Kafka Streams
 * writes changelog records the same way, from the processor context to the collector.
 *
 * <p>{@code RecordCollector} and {@code InternalProcessorContext} are Kafka Streams internals
 * (pinned version in the parent pom, with every class that uses Kafka internals). {@code
 * TaskOutputInternalsTest} fails naming this class when a Kafka Streams upgrade changes the types,
 * the {@code send} overload or the context this relies on, or when the Kafka on the classpath is
 * not the pinned one; {@code RouterTopologyTest} and {@code RouterIT} run this path on every build.
 */
final class TaskOutput {
  private static final Serializer<byte[]> BYTES = new ByteArraySerializer();

  private final RecordCollector.Supplier collectors;
  private final InternalProcessorContext<Void, Void> context;
  private final String nodeName;

  private TaskOutput(
      RecordCollector.Supplier collectors,
      InternalProcessorContext<Void, Void> context,
      String nodeName) {
    this.collectors = collectors;
    this.context = context;
    this.nodeName = nodeName;
  }

  /**
   * The output of the processor named {@code nodeName} that was given {@code context}.
   *
   * @throws IllegalStateException when the context is not Kafka Streams' own (a mock)
   */
  @SuppressWarnings("unchecked")
  static TaskOutput of(ProcessorContext<Void, Void> context, String nodeName) {
    if (context instanceof RecordCollector.Supplier collectors
        && context instanceof InternalProcessorContext<?, ?> internal) {
      return new TaskOutput(collectors, (InternalProcessorContext<Void, Void>) internal, nodeName);
    }
    throw new IllegalStateException(
        "processor "
            + nodeName
            + " writes through Kafka Streams' record collector and needs Kafka Streams' own"
            + " processor context (KafkaStreams or TopologyTestDriver), got "
            + context.getClass().getName());
  }

  /** Sends one record; a failed send fails the task at the next send, flush or commit. */
  void send(
      String topic, int partition, byte[] key, byte[] value, Headers headers, long timestamp) {
    // The collector is looked up each time: a task's changes when it turns from standby to active.
    collectors
        .recordCollector()
        .send(topic, key, value, headers, partition, timestamp, BYTES, BYTES, nodeName, context);
  }
}
