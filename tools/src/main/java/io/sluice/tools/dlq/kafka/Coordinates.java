package io.sluice.tools.dlq.kafka;

/** Where a record is: topic, partition and offset. Prints as {@code topic-partition@offset}. */
public record Coordinates(String topic, int partition, long offset) {

  @Override
  public String toString() {
    return topic + "-" + partition + "@" + offset;
  }
}
