package io.sluice.schema.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.server.DevSchemaRegistry;
import io.sluice.schema.wire.WireFormat;
import java.math.BigDecimal;
import java.util.Arrays;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ConnectAvroCodecTest {
  private static final Schema ROW =
      SchemaBuilder.struct()
          .name("it.cdc.orders.Value")
          .field("order_id", Schema.INT64_SCHEMA)
          .field("status", Schema.OPTIONAL_STRING_SCHEMA)
          .field("amount", Decimal.builder(2).optional().build())
          .field(
              "updated_at",
              SchemaBuilder.int64().name("io.debezium.time.Timestamp").version(1).build())
          .optional()
          .build();
  private static final Schema ENVELOPE =
      SchemaBuilder.struct()
          .name("it.cdc.orders.Envelope")
          .field("before", ROW)
          .field("after", ROW)
          .field("op", Schema.STRING_SCHEMA)
          .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
          .build();

  private DevSchemaRegistry registry;
  private SchemaRegistryClient client;
  private ConnectAvroCodec codec;

  @BeforeEach
  void start() {
    registry = DevSchemaRegistry.startInMemory("127.0.0.1", 0);
    client = HttpSchemaRegistryClient.create(registry.url());
    codec = new ConnectAvroCodec(client);
  }

  @AfterEach
  void stop() {
    registry.close();
  }

  @Test
  void debeziumEnvelopeRoundTripsWithSemanticTypesKept() {
    Struct after =
        new Struct(ROW)
            .put("order_id", 7L)
            .put("status", "NEW")
            .put("amount", new BigDecimal("12.34"))
            .put("updated_at", 1_767_225_600_123L);
    Struct envelope = new Struct(ENVELOPE).put("after", after).put("op", "c").put("ts_ms", 5L);

    byte[] bytes = codec.encode("it.cdc.orders-value", ENVELOPE, envelope);

    assertThat(WireFormat.schemaId(bytes)).isEqualTo(client.latest("it.cdc.orders-value").id());
    Struct decoded = (Struct) codec.decode("it.cdc.orders", bytes).value();
    Struct row = decoded.getStruct("after");
    assertThat(row.getInt64("order_id")).isEqualTo(7L);
    assertThat(row.get("amount")).isEqualTo(new BigDecimal("12.34"));
    assertThat(row.schema().field("updated_at").schema().name())
        .isEqualTo("io.debezium.time.Timestamp");
    assertThat(decoded.getStruct("before")).isNull();
    org.apache.avro.Schema registered = client.latest("it.cdc.orders-value").schema();
    assertThat(registered.getField("after").schema().getType())
        .isEqualTo(org.apache.avro.Schema.Type.UNION);
  }

  @Test
  void addingAnOptionalColumnRegistersABackwardCompatibleSecondVersion() {
    Schema widened =
        SchemaBuilder.struct()
            .name("it.cdc.orders.Value")
            .field("order_id", Schema.INT64_SCHEMA)
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    Schema narrow =
        SchemaBuilder.struct()
            .name("it.cdc.orders.Value")
            .field("order_id", Schema.INT64_SCHEMA)
            .build();
    codec.encode("t-value", narrow, new Struct(narrow).put("order_id", 1L));
    byte[] second =
        codec.encode("t-value", widened, new Struct(widened).put("order_id", 2L).put("note", "x"));

    assertThat(client.versions("t-value")).containsExactly(1, 2);
    assertThat(((Struct) codec.decode("t", second).value()).getString("note")).isEqualTo("x");
  }

  @Test
  void leftoverBytesAreADataExceptionNamingTopicAndSchemaId() {
    byte[] bytes =
        codec.encode("t-value", ENVELOPE, new Struct(ENVELOPE).put("op", "d").put("ts_ms", 1L));
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);

    assertThatThrownBy(() -> codec.decode("t", longer))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("schema id " + WireFormat.schemaId(bytes))
        .hasMessageContaining("topic t");
  }

  @Test
  void truncatedBytesAreADataExceptionNotAnOutOfMemoryError() {
    byte[] bytes =
        codec.encode("t-value", ENVELOPE, new Struct(ENVELOPE).put("op", "c").put("ts_ms", 1L));
    byte[] forged = Arrays.copyOf(bytes, WireFormat.HEADER_SIZE + 2);
    forged[WireFormat.HEADER_SIZE] = 0; // before: null branch
    forged[WireFormat.HEADER_SIZE + 1] = 2; // after: record branch, then nothing

    assertThatThrownBy(() -> codec.decode("t", forged))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("cannot decode Avro with schema id");
  }
}
