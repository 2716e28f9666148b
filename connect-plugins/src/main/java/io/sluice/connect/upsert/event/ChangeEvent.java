package io.sluice.connect.upsert.event;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * One change to a table's row, from one Kafka record: as Connect data (the connector's converter
 * decoded the record) or as Avro data the sink decoded itself (the direct path, {@link #avro()}).
 *
 * @param sourceOp what happened at the source; it decides the {@link #operation()}
 * @param key the primary-key fields; null on the direct path
 * @param row the whole new row for {@link Operation#UPSERT}, null for {@link Operation#DELETE} and
 *     on the direct path
 * @param sourceTimeMs when the change happened at the source (epoch ms), {@link #NO_TIME} when the
 *     record does not say
 * @param avro the change as the sink decoded it from Confluent-wire Avro; null when {@code key} and
 *     {@code row} hold it
 */
public record ChangeEvent(
    String topic,
    int partition,
    long offset,
    SourceOp sourceOp,
    Struct key,
    Struct row,
    long sourceTimeMs,
    AvroChange avro) {

  /** {@link #sourceTimeMs} of a record without an event time. */
  public static final long NO_TIME = -1;

  /** A change as Connect data. */
  public ChangeEvent(
      String topic,
      int partition,
      long offset,
      SourceOp sourceOp,
      Struct key,
      Struct row,
      long sourceTimeMs) {
    this(topic, partition, offset, sourceOp, key, row, sourceTimeMs, null);
  }

  public Operation operation() {
    return sourceOp.operation();
  }

  /** The Connect schema of the row (as the connector's converter would give it). */
  public Schema rowSchema() {
    return avro != null ? avro.rowSchema() : row.schema();
  }

  /** The Connect schema of the key (as the connector's converter would give it). */
  public Schema keySchema() {
    return avro != null ? avro.keySchema() : key.schema();
  }

  /** {@code topic/partition/offset}, for error messages. */
  public String coordinates() {
    return "topic " + topic + " partition " + partition + " offset " + offset;
  }
}
