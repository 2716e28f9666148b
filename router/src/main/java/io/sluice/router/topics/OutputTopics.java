package io.sluice.router.topics;

/**
 * Makes sure the clean and DLQ topics of an input topic exist before the router writes to them
 * (brokers may not auto-create topics). Called on the stream thread the first time a task sees a
 * topic; implementations cache and must be thread-safe.
 */
@FunctionalInterface
public interface OutputTopics {
  /**
   * Creates the output topics of {@code inputTopic} when missing.
   *
   * @return the partition counts of its clean and DLQ topics
   * @throws RuntimeException when they cannot be created or described; the task fails and is
   *     retried by Kafka Streams
   */
  Partitions ensure(String inputTopic);

  /**
   * The partition counts of an input's clean and DLQ topics, 0 where unknown. A record keeps its
   * input partition p; when an output topic has fewer partitions (created by hand, or the input
   * grew), it goes to p mod n, so each key still lands in one partition.
   */
  record Partitions(int clean, int dlq) {
    /** Counts not known: every record keeps its input partition. */
    public static final Partitions SAME_AS_INPUT = new Partitions(0, 0);

    public Partitions {
      if (clean < 0 || dlq < 0) {
        throw new IllegalArgumentException(
            "partition counts must be >= 0, got clean " + clean + " and dlq " + dlq);
      }
    }

    /** The clean topic's partition for input partition {@code partition}. */
    public int cleanPartition(int partition) {
      return fold(partition, clean);
    }

    /** The DLQ topic's partition for input partition {@code partition}. */
    public int dlqPartition(int partition) {
      return fold(partition, dlq);
    }

    private static int fold(int partition, int count) {
      return count == 0 || partition < count ? partition : partition % count;
    }
  }
}
