package io.sluice.connect.converter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.connect.testing.Envelopes;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.server.DevSchemaRegistry;
import java.math.BigDecimal;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Against the dev registry over HTTP (in memory, no broker). */
class RegistryAvroConverterTest {
  private static final String TOPIC = "broker.cdc_lab.orders";

  private DevSchemaRegistry registry;

  @BeforeEach
  void startRegistry() {
    registry = DevSchemaRegistry.startInMemory("127.0.0.1", 0);
  }

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  @Test
  void debeziumEnvelopeRoundTripsWithItsSemanticTypes() {
    Schema row =
        SchemaBuilder.struct()
            .name("broker.cdc_lab.orders.Value")
            .optional()
            .field("id", Schema.INT32_SCHEMA)
            .field(
                "created",
                SchemaBuilder.int64()
                    .name("io.debezium.time.Timestamp")
                    .version(1)
                    .optional()
                    .build())
            .field(
                "amount",
                Decimal.builder(2).parameter("connect.decimal.precision", "10").optional().build())
            .build();
    Schema envelope = Envelopes.envelope(row);
    Struct after =
        new Struct(row)
            .put("id", 5)
            .put("created", 1_700_000_000_123L)
            .put("amount", new BigDecimal("9.99"));
    Struct value = Envelopes.change(envelope, "c", null, after);

    RegistryAvroConverter converter = converter(false, Map.of());
    byte[] bytes = converter.fromConnectData(TOPIC, envelope, value);
    SchemaAndValue back = converter.toConnectData(TOPIC, bytes);

    Struct backAfter = ((Struct) back.value()).getStruct("after");
    assertThat(backAfter.schema().field("created").schema().name())
        .isEqualTo("io.debezium.time.Timestamp");
    assertThat(backAfter.getInt64("created")).isEqualTo(1_700_000_000_123L);
    assertThat(backAfter.schema().field("amount").schema().parameters())
        .containsEntry("connect.decimal.precision", "10");
    assertThat(backAfter.get("amount")).isEqualTo(new BigDecimal("9.99"));
    assertThat(((Struct) back.value()).getString("op")).isEqualTo("c");
    assertThat(HttpSchemaRegistryClient.create(registry.url()).subjects())
        .containsExactly(TOPIC + "-value");
  }

  @Test
  void keysGoToTheKeySubject() {
    RegistryAvroConverter keys = converter(true, Map.of());
    byte[] bytes = keys.fromConnectData(TOPIC, Envelopes.KEY, Envelopes.key(3));
    assertThat(keys.toConnectData(TOPIC, bytes).value()).isEqualTo(Envelopes.key(3));
    assertThat(HttpSchemaRegistryClient.create(registry.url()).subjects())
        .containsExactly(TOPIC + "-key");
  }

  @Test
  void tombstonesStayNull() {
    RegistryAvroConverter converter = converter(false, Map.of());
    assertThat(converter.fromConnectData(TOPIC, Envelopes.ENVELOPE, null)).isNull();
    assertThat(converter.toConnectData(TOPIC, null)).isEqualTo(SchemaAndValue.NULL);
  }

  @Test
  void bytesThatAreNotWireFormatFailNamingTheTopic() {
    RegistryAvroConverter converter = converter(false, Map.of());
    assertThatThrownBy(() -> converter.toConnectData(TOPIC, "{\"id\":1}".getBytes()))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("the value on topic " + TOPIC + " is not Confluent-wire Avro");
  }

  @Test
  void unknownSchemaIdFailsNamingTopicAndId() {
    RegistryAvroConverter converter = converter(false, Map.of());
    byte[] bytes = {0, 0, 0, 3, (byte) 0xE7, 2};
    assertThatThrownBy(() -> converter.toConnectData(TOPIC, bytes))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("cannot resolve schema id 999 of the value on topic " + TOPIC);
  }

  @Test
  void bodyThatDoesNotDecodeFailsNamingTheSchemaId() {
    RegistryAvroConverter converter = converter(false, Map.of());
    byte[] good =
        converter.fromConnectData(
            TOPIC, Envelopes.ENVELOPE, Envelopes.change("c", null, Envelopes.row(1, "a")));
    byte[] truncated = java.util.Arrays.copyOf(good, 8);
    assertThatThrownBy(() -> converter.toConnectData(TOPIC, truncated))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("schema id")
        .hasMessageContaining(TOPIC);
  }

  @Test
  void withoutAutoRegistrationAnUnregisteredSchemaFails() {
    RegistryAvroConverter converter = converter(false, Map.of("auto.register.schemas", "false"));
    assertThatThrownBy(() -> converter.fromConnectData(TOPIC, Envelopes.KEY, Envelopes.key(1)))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("registry refused the value schema of subject " + TOPIC + "-value");
    converter(false, Map.of()).fromConnectData(TOPIC, Envelopes.KEY, Envelopes.key(1));
    assertThat(converter.fromConnectData(TOPIC, Envelopes.KEY, Envelopes.key(2))).isNotEmpty();
  }

  @Test
  void unreachableRegistryIsRetriableNotADataError() {
    RegistryAvroConverter converter = converter(false, Map.of());
    registry.close();
    byte[] bytes = {0, 0, 0, 0, 42, 2};
    assertThatThrownBy(() -> converter.toConnectData(TOPIC, bytes))
        .isInstanceOf(RetriableException.class)
        .hasMessageContaining(
            "schema registry unavailable while resolving schema id 42 on topic " + TOPIC);
  }

  @Test
  void registryUrlIsRequired() {
    assertThatThrownBy(() -> new RegistryAvroConverter().configure(Map.of(), false))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("schema.registry.url");
    assertThat(new RegistryAvroConverter().config().names())
        .containsExactlyInAnyOrder("schema.registry.url", "auto.register.schemas");
  }

  private RegistryAvroConverter converter(boolean isKey, Map<String, String> extra) {
    Map<String, Object> config = new java.util.HashMap<>(extra);
    config.put("schema.registry.url", registry.url());
    RegistryAvroConverter converter = new RegistryAvroConverter();
    converter.configure(config, isKey);
    return converter;
  }
}
