package io.sluice.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class RetypedSchemasTest {
  static final Schema ENVELOPE =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "Envelope", "namespace": "broker.cdc_lab.orders",
               "fields": [
                {"name": "before", "type": ["null", {"type": "record", "name": "Value",
                  "fields": [
                    {"name": "order_id", "type": "long"},
                    {"name": "amount_cents", "type": "long", "default": 0},
                    {"name": "status", "type": ["null", "string"], "default": null},
                    {"name": "updated_at", "type": {"type": "long",
                      "connect.name": "io.debezium.time.Timestamp"}}
                  ]}], "default": null},
                {"name": "after", "type": ["null", "Value"], "default": null},
                {"name": "op", "type": "string"},
                {"name": "ts_ms", "type": ["null", "long"], "default": null}
               ]}
              """);

  @Test
  void retypingTurnsTheRowFieldIntoAStringInBothImages() {
    Schema retyped = RetypedSchemas.retyped(ENVELOPE, "amount_cents");

    Schema after = retyped.getField("after").schema().getTypes().get(1);
    Schema before = retyped.getField("before").schema().getTypes().get(1);
    assertThat(after.getField("amount_cents").schema().getType()).isEqualTo(Schema.Type.STRING);
    assertThat(before).isSameAs(after);
    assertThat(after.getField("amount_cents").defaultVal()).isEqualTo("0");
    assertThat(after.getField("order_id").schema().getType()).isEqualTo(Schema.Type.LONG);
    assertThat(RetypedSchemas.typeOf(retyped, "amount_cents")).isEqualTo("string");
    assertThat(RetypedSchemas.typeOf(ENVELOPE, "amount_cents")).isEqualTo("long");
  }

  @Test
  void retypingAnOptionalFieldKeepsItOptional() {
    Schema retyped = RetypedSchemas.retyped(ENVELOPE, "ts_ms");

    assertThat(retyped.getField("ts_ms").schema().toString()).isEqualTo("[\"null\",\"string\"]");
  }

  @Test
  void revertingKeepsTheTypesAndGivesTheRegistryANewText() {
    Schema reverted = RetypedSchemas.reverted(ENVELOPE, "amount_cents", "long again");

    assertThat(reverted.toString()).isNotEqualTo(ENVELOPE.toString());
    assertThat(RetypedSchemas.typeOf(reverted, "amount_cents")).isEqualTo("long");
    Schema row = reverted.getField("after").schema().getTypes().get(1);
    assertThat(row.getField("amount_cents").doc()).isEqualTo("long again");
    assertThat(row.getField("updated_at").schema().getProp("connect.name"))
        .isEqualTo("io.debezium.time.Timestamp");
  }

  @Test
  void aFieldNoRecordHasIsRefused() {
    assertThatThrownBy(() -> RetypedSchemas.retyped(ENVELOPE, "price"))
        .isInstanceOf(ScenarioFailure.class)
        .hasMessageContaining("has no record with a field price");
  }
}
