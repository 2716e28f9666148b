package io.sluice.connect.upsert.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class EnvelopeProjectionTest {
  private static final Schema ROW =
      SchemaBuilder.record("Value")
          .namespace("cdc_lab.orders")
          .fields()
          .requiredLong("id")
          .optionalString("status")
          .endRecord();
  private static final Schema SOURCE =
      SchemaBuilder.record("Source")
          .namespace("io.debezium.connector.mysql")
          .fields()
          .requiredString("version")
          .requiredString("db")
          .requiredLong("ts_ms")
          .optionalString("query")
          .endRecord();
  private static final Schema TRANSACTION =
      SchemaBuilder.record("block")
          .namespace("event")
          .fields()
          .requiredString("id")
          .requiredLong("total_order")
          .endRecord();
  private static final Schema ENVELOPE =
      SchemaBuilder.record("Envelope")
          .namespace("cdc_lab.orders")
          .fields()
          .name("before")
          .type()
          .optional()
          .type(ROW)
          .name("after")
          .type()
          .optional()
          .type(ROW)
          .name("source")
          .type(SOURCE)
          .noDefault()
          .requiredString("op")
          .optionalLong("ts_ms")
          .name("transaction")
          .type()
          .optional()
          .type(TRANSACTION)
          .endRecord();

  @Test
  void readsWhatTheDirectPathUsesAndSkipsTheRest() throws IOException {
    GenericRecord before = row(7, "new");
    GenericRecord after = row(7, "paid");
    GenericRecord source = new GenericData.Record(SOURCE);
    source.put("version", "3.1");
    source.put("db", "cdc_lab");
    source.put("ts_ms", 1_765_000_000_123L);
    source.put("query", "UPDATE orders SET status = 'paid' WHERE id = 7");
    GenericRecord transaction = new GenericData.Record(TRANSACTION);
    transaction.put("id", "tx-1");
    transaction.put("total_order", 3L);
    GenericRecord envelope = new GenericData.Record(ENVELOPE);
    envelope.put("before", before);
    envelope.put("after", after);
    envelope.put("source", source);
    envelope.put("op", "u");
    envelope.put("ts_ms", 1_765_000_000_456L);
    envelope.put("transaction", transaction);
    byte[] bytes = encode(envelope);

    for (boolean keepBefore : new boolean[] {false, true}) {
      Schema reader = EnvelopeProjection.readerSchema(ENVELOPE, keepBefore);
      BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, null);
      GenericRecord read =
          (GenericRecord) new GenericDatumReader<Object>(ENVELOPE, reader).read(null, decoder);

      assertThat(decoder.isEnd()).as("every byte read or skipped").isTrue();
      assertThat(read.get("after")).isEqualTo(after);
      assertThat(read.get("op").toString()).isEqualTo("u");
      assertThat(read.get("ts_ms")).isEqualTo(1_765_000_000_456L);
      GenericRecord readSource = (GenericRecord) read.get("source");
      assertThat(readSource.get("ts_ms")).isEqualTo(1_765_000_000_123L);
      assertThat(readSource.getSchema().getFields()).hasSize(1);
      assertThat(read.getSchema().getField("transaction")).isNull();
      if (keepBefore) {
        assertThat(read.get("before")).isEqualTo(before);
      } else {
        assertThat(read.getSchema().getField("before")).isNull();
      }
      assertThat(read.getSchema().getField("after").schema())
          .as("the row's schema is the writer's own")
          .isSameAs(ENVELOPE.getField("after").schema());
    }
  }

  @Test
  void aSchemaThatIsNoEnvelopeIsItsOwnReaderSchema() {
    assertThat(EnvelopeProjection.readerSchema(ROW, false)).isSameAs(ROW);
    Schema string = Schema.create(Schema.Type.STRING);
    assertThat(EnvelopeProjection.readerSchema(string, false)).isSameAs(string);
  }

  private static GenericRecord row(long id, String status) {
    GenericRecord row = new GenericData.Record(ROW);
    row.put("id", id);
    row.put("status", status);
    return row;
  }

  private static byte[] encode(GenericRecord envelope) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<Object>(ENVELOPE).write(envelope, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
