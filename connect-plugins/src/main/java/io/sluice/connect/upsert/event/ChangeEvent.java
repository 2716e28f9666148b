package io.sluice.connect.upsert.event;

import org.apache.kafka.connect.data.Struct;

/**
 * One change to a table's row, from one Kafka record.
 *
 * @param key the primary-key fields
 * @param row the whole new row for {@link Operation#UPSERT}, null for {@link Operation#DELETE}
 */
public record ChangeEvent(
    String topic, int partition, long offset, Operation operation, Struct key, Struct row) {

  /** {@code topic/partition/offset}, for error messages. */
  public String coordinates() {
    return "topic " + topic + " partition " + partition + " offset " + offset;
  }
}
