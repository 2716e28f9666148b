package io.sluice.tools.dlq.repair;

import io.sluice.schema.wire.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/** Avro data to and from Confluent wire format bytes with a given schema. */
public final class AvroWire {
  private AvroWire() {}

  /**
   * {@code datum} encoded with {@code schema}, behind the header of {@code schemaId}.
   *
   * @throws RepairException when the datum does not fit the schema
   */
  public static byte[] encode(int schemaId, Schema schema, Object datum) {
    ByteArrayOutputStream body = new ByteArrayOutputStream(256);
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(body, null);
    try {
      new GenericDatumWriter<>(schema).write(datum, encoder);
      encoder.flush();
    } catch (IOException | RuntimeException e) {
      // Avro's messages can quote the offending value: name only the failure's type.
      throw new RepairException(
          "cannot encode the repaired record with schema id "
              + schemaId
              + " ("
              + e.getClass().getSimpleName()
              + ")");
    }
    return WireFormat.encode(schemaId, body.toByteArray());
  }

  /**
   * Decodes wire bytes written with {@code writer}.
   *
   * @throws IOException when the body does not decode or leaves bytes
   */
  public static Object decode(byte[] wire, Schema writer) throws IOException {
    int length = wire.length - WireFormat.HEADER_SIZE;
    BinaryDecoder decoder =
        DecoderFactory.get().binaryDecoder(wire, WireFormat.HEADER_SIZE, length, null);
    Object datum = new GenericDatumReader<>(writer).read(null, decoder);
    if (!decoder.isEnd()) {
      throw new IOException("bytes left after the Avro body");
    }
    return datum;
  }
}
