package io.sluice.schema.serde;

import static io.sluice.schema.testing.Schemas.ORDER_KEY;
import static io.sluice.schema.testing.Schemas.ORDER_V1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.registry.RegistryUnavailableException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.server.DevSchemaRegistry;
import io.sluice.schema.wire.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The serde against a real (in-memory) dev registry over HTTP. */
class AvroSerdeTest {
  private static final String TOPIC = "broker.cdc_lab.orders";

  private final DevSchemaRegistry registry = DevSchemaRegistry.startInMemory("127.0.0.1", 0);
  private final SchemaRegistryClient client = HttpSchemaRegistryClient.create(registry.url());

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  @Test
  void roundTripRegistersUnderTheValueSubject() {
    AvroSerde serde = configured(Map.of("schema.registry.url", registry.url()), false);
    GenericRecord order = order(42L, "ada");

    byte[] bytes = serde.serializer().serialize(TOPIC, order);

    assertThat(WireFormat.schemaId(bytes)).isEqualTo(1);
    assertThat(client.latest(TOPIC + "-value").id()).isEqualTo(1);
    assertThat(serde.deserializer().deserialize(TOPIC, bytes)).isEqualTo(order);
  }

  @Test
  void aKeySerdeUsesTheKeySubject() {
    AvroSerde serde = configured(Map.of("schema.registry.url", registry.url()), true);
    GenericRecord key = new GenericData.Record(ORDER_KEY);
    key.put("id", 42L);

    byte[] bytes = serde.serializer().serialize(TOPIC, key);

    assertThat(client.isIdInSubject(TOPIC + "-key", WireFormat.schemaId(bytes))).isTrue();
    assertThat(client.subjects()).containsExactly(TOPIC + "-key");
  }

  @Test
  void nullsStayNull() {
    AvroSerde serde = new AvroSerde(client, true, false);

    assertThat(serde.serializer().serialize(TOPIC, null)).isNull();
    assertThat(serde.deserializer().deserialize(TOPIC, null)).isNull();
  }

  @Test
  void withoutAutoRegisterTheSchemaMustAlreadyBeInTheSubject() {
    AvroSerde serde =
        configured(
            Map.of("schema.registry.url", registry.url(), "auto.register.schemas", "false"), false);

    assertThatThrownBy(() -> serde.serializer().serialize(TOPIC, order(1L, "bob")))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("no schema id for topic broker.cdc_lab.orders under subject")
        .hasMessageContaining("auto.register.schemas=false")
        .hasMessageContaining("40401");

    int id = client.register(TOPIC + "-value", ORDER_V1);
    byte[] bytes = serde.serializer().serialize(TOPIC, order(1L, "bob"));
    assertThat(WireFormat.schemaId(bytes)).isEqualTo(id);
  }

  @Test
  void trailingBytesAreRejectedNamingTopicAndSchemaId() {
    AvroSerde serde = new AvroSerde(client, true, false);
    byte[] bytes = serde.serializer().serialize(TOPIC, order(7L, "cy"));
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);

    assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, longer))
        .isInstanceOf(SerializationException.class)
        .hasMessage(
            "topic broker.cdc_lab.orders: trailing bytes after the record written with schema id 1 ("
                + longer.length
                + " bytes in all): 1 trailing bytes after the cdc_lab.Order datum, which ends at byte "
                + (bytes.length - 5)
                + " of "
                + (longer.length - 5));
  }

  @Test
  void aTruncatedBodyDoesNotDecode() {
    AvroSerde serde = new AvroSerde(client, true, false);
    byte[] bytes = serde.serializer().serialize(TOPIC, order(7L, "cyrus"));
    byte[] truncated = Arrays.copyOf(bytes, bytes.length - 2);

    assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, truncated))
        .isInstanceOf(SerializationException.class)
        .hasMessageStartingWith(
            "topic broker.cdc_lab.orders: "
                + truncated.length
                + " bytes do not decode with schema id 1");
  }

  @Test
  void aForgedStringLengthIsRefusedWithoutAllocatingIt() throws IOException {
    AvroSerde serde = new AvroSerde(client, true, false);
    serde.serializer().serialize(TOPIC, order(7L, "cy"));
    // id 7, then a customer string claiming 900 MB that is not there.
    byte[] forged = WireFormat.encode(1, longs(7L, 900_000_000L));

    assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, forged))
        .isInstanceOf(SerializationException.class)
        .hasMessage(
            "topic broker.cdc_lab.orders: 11 bytes do not decode with schema id 1 (11 bytes in all):"
                + " at byte 1 (field customer): string length 900000000 exceeds the 0 remaining"
                + " bytes");
  }

  @Test
  void bytesThatAreNotWireFormatOrNameAnUnknownIdAreRejected() {
    AvroDeserializer deserializer = new AvroDeserializer(client);
    byte[] json = "{\"id\":1}".getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, json))
        .isInstanceOf(SerializationException.class)
        .hasMessage(
            "topic broker.cdc_lab.orders: not Confluent wire format Avro: expected magic byte 0x00,"
                + " got 0x7b");
    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, WireFormat.encode(99, new byte[] {2})))
        .isInstanceOf(SerializationException.class)
        .hasMessageStartingWith("topic broker.cdc_lab.orders: no writer schema for schema id 99: ")
        .hasMessageContaining("40403");
  }

  @Test
  void aRecordThatDoesNotFitItsSchemaIsASerializationError() {
    AvroSerializer serializer = new AvroSerializer(client, true, false);
    GenericRecord incomplete = new GenericData.Record(ORDER_V1);
    incomplete.put("id", 1L);

    assertThatThrownBy(() -> serializer.serialize(TOPIC, incomplete))
        .isInstanceOf(SerializationException.class)
        .hasMessageStartingWith(
            "cannot write a cdc_lab.Order record for topic broker.cdc_lab.orders (schema id 1): ");
  }

  @Test
  void anUnreachableRegistryIsRetryableNotASerializationError() {
    AvroSerde serde = new AvroSerde(client, true, false);
    byte[] bytes = serde.serializer().serialize(TOPIC, order(7L, "cy"));
    SchemaRegistryClient down = HttpSchemaRegistryClient.create(registry.url());
    registry.close();

    assertThatThrownBy(() -> new AvroDeserializer(down).deserialize(TOPIC, bytes))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("GET /schemas/ids/1 (schema id 1): cannot reach");
    assertThatThrownBy(() -> new AvroSerializer(down).serialize(TOPIC, order(8L, "di")))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("POST /subjects/broker.cdc_lab.orders-value/versions");
  }

  @Test
  void aMissingRegistryUrlNamesTheKey() {
    assertThatThrownBy(() -> new AvroSerde().configure(Map.of(), false))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("schema.registry.url")
        .hasMessageContaining("required");
    assertThatThrownBy(
            () -> new AvroSerde().configure(Map.of("schema.registry.url", "localhost:8081"), false))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("must start with http:// or https://");
  }

  private static byte[] longs(long... values) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    for (long value : values) {
      encoder.writeLong(value);
    }
    encoder.flush();
    return out.toByteArray();
  }

  private static AvroSerde configured(Map<String, ?> configs, boolean isKey) {
    AvroSerde serde = new AvroSerde();
    serde.configure(configs, isKey);
    return serde;
  }

  private static GenericRecord order(long id, String customer) {
    GenericRecord order = new GenericData.Record(ORDER_V1);
    order.put("id", id);
    order.put("customer", customer);
    return order;
  }
}
