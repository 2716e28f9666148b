package io.sluice.bench.sink;

import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Reads Confluent-wire Avro into {@link GenericRecord}s with the writer schema the header names:
 * one {@link GenericDatumReader} per schema id, built once (so Avro resolves each schema once, not
 * per record), and one reused {@link BinaryDecoder}. Bytes left after the record are an error. Not
 * thread-safe: the limit's one thread reads with it.
 */
final class WireAvroReader {
  private final SchemaRegistryClient registry;
  private final Map<Integer, GenericDatumReader<GenericRecord>> readers = new HashMap<>();
  private BinaryDecoder decoder;

  WireAvroReader(SchemaRegistryClient registry) {
    this.registry = registry;
  }

  /**
   * The record in {@code bytes}.
   *
   * @param partition the record's partition and {@code offset} its offset, for error messages
   * @throws IllegalStateException when the bytes are not one record of the schema the header names
   */
  GenericRecord read(byte[] bytes, int partition, long offset) {
    int id = WireFormat.schemaId(bytes);
    GenericDatumReader<GenericRecord> reader =
        readers.computeIfAbsent(id, i -> new GenericDatumReader<>(writerSchema(i)));
    decoder =
        DecoderFactory.get()
            .binaryDecoder(
                bytes, WireFormat.HEADER_SIZE, bytes.length - WireFormat.HEADER_SIZE, decoder);
    GenericRecord record;
    boolean trailing;
    try {
      record = reader.read(null, decoder);
      trailing = !decoder.isEnd();
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "cannot decode the record of schema id "
              + id
              + " at partition "
              + partition
              + " offset "
              + offset
              + ": "
              + e,
          e);
    }
    if (trailing) {
      throw new IllegalStateException(
          "bytes left after the record of schema id "
              + id
              + " at partition "
              + partition
              + " offset "
              + offset);
    }
    return record;
  }

  /** Writer schemas fetched so far, by id. */
  int schemas() {
    return readers.size();
  }

  private Schema writerSchema(int id) {
    Schema schema = registry.schemaById(id);
    if (schema.getType() != Schema.Type.RECORD) {
      throw new IllegalStateException(
          "schema id " + id + " is a " + schema.getType() + ", not a record");
    }
    return schema;
  }
}
