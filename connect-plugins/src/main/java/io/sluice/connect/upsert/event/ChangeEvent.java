package io.sluice.connect.upsert.event;

import org.apache.kafka.connect.data.Struct;

/**
 * One change to a table's row, from one Kafka record.
 *
 * @param sourceOp what happened at the source; it decides the {@link #operation()}
 * @param key the primary-key fields
 * @param row the whole new row for {@link Operation#UPSERT}, null for {@link Operation#DELETE}
 * @param sourceTimeMs when the change happened at the source (epoch ms), {@link #NO_TIME} when the
 *     record does not say
 */
public record ChangeEvent(
    String topic,
    int partition,
    long offset,
    SourceOp sourceOp,
    Struct key,
    Struct row,
    long sourceTimeMs) {

  /** {@link #sourceTimeMs} of a record without an event time. */
  public static final long NO_TIME = -1;

  public Operation operation() {
    return sourceOp.operation();
  }

  /** {@code topic/partition/offset}, for error messages. */
  public String coordinates() {
    return "topic " + topic + " partition " + partition + " offset " + offset;
  }
}
