package io.sluice.connect.upsert.event;

import java.util.function.Supplier;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.connect.data.Schema;

/**
 * A change the sink decoded itself from Confluent-wire Avro (the direct path), kept as Avro data:
 * the row and the record that holds the key's fields, with the Connect schemas the connector's
 * converter would have given them (table creation and evolution work on those).
 *
 * @param row the new row ({@code after}); null for a delete
 * @param rowSchema the Connect schema of {@code row}; null for a delete
 * @param keySource the record whose fields named by {@code keySchema} are the key: the record key,
 *     or the row (the {@code before} image for a delete) with {@code primary.key.fields}
 * @param keySchema the Connect schema of the key
 * @param asConnect the same change decoded to Connect data and read by {@link ChangeExtractor}: the
 *     reference for whatever the direct conversion does not cover (and for its errors)
 */
public record AvroChange(
    GenericRecord row,
    Schema rowSchema,
    GenericRecord keySource,
    Schema keySchema,
    Supplier<ChangeEvent> asConnect) {}
