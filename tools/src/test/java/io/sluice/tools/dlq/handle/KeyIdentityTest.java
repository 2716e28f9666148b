package io.sluice.tools.dlq.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.schema.testing.InMemorySchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import io.sluice.tools.dlq.repair.AvroWire;
import io.sluice.tools.dlq.testing.TestSchemas;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class KeyIdentityTest {
  private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
  private final KeyDecoder decoder = new KeyDecoder(registry);

  private byte[] key(Schema schema, long orderId) {
    int id = registry.register("t-key", schema);
    GenericRecord key = new GenericData.Record(schema);
    key.put("order_id", orderId);
    return AvroWire.encode(id, schema, key);
  }

  @Test
  void avroKeysWrittenWithDifferentSchemasCompareByTheirFields() {
    Schema renamed =
        SchemaBuilder.record("OtherKey")
            .namespace("x")
            .fields()
            .requiredLong("order_id")
            .endRecord();
    byte[] a = key(TestSchemas.ordersKey(), 42);
    byte[] b = key(renamed, 42);

    assertThat(WireFormat.schemaId(a)).isNotEqualTo(WireFormat.schemaId(b));
    assertThat(decoder.identify(a).sameKeyAs(decoder.identify(b))).isTrue();
    assertThat(decoder.identify(a).sameKeyAs(decoder.identify(key(renamed, 43)))).isFalse();
    assertThat(decoder.identify(a).describe()).isEqualTo("{order_id=42}");
  }

  @Test
  void keysThatAreNotAvroCompareByBytes() {
    KeyIdentity text = decoder.identify("k-1".getBytes());

    assertThat(text.fields()).isNull();
    assertThat(text.sameKeyAs(decoder.identify("k-1".getBytes()))).isTrue();
    assertThat(text.sameKeyAs(decoder.identify("k-2".getBytes()))).isFalse();
    assertThat(text.describe()).isEqualTo("(3 key bytes, not Avro)");
  }

  @Test
  void aKeyWithAnUnknownSchemaIdComparesByBytes() {
    byte[] unknown = WireFormat.encode(99, new byte[] {84});

    assertThat(decoder.identify(unknown).fields()).isNull();
    assertThat(decoder.identify(unknown).sameKeyAs(decoder.identify(unknown.clone()))).isTrue();
  }
}
