package io.sluice.lab.verify.sinkpoison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.lab.verify.ScenarioFailure;
import io.sluice.tools.dlq.repair.AvroWire;
import io.sluice.tools.dlq.repair.IntendedRow;
import java.io.IOException;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.junit.jupiter.api.Test;

class IntendedRowDecoderTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema RETYPED =
      RetypedSchemas.retyped(RetypedSchemasTest.ENVELOPE, "amount_cents");

  @Test
  void theIntendedRowHasTheRetypedFieldBackAsALong() throws IOException {
    byte[] wire = AvroWire.encode(42, RETYPED, event("12345"));

    byte[] payload = IntendedRowDecoder.intendedPayload(wire, RETYPED, "amount_cents");

    JsonNode root = JSON.readTree(payload);
    assertThat(root.path("intended_operation").asText()).isEqualTo("c");
    JsonNode row = root.path("intended_after");
    assertThat(row.path("amount_cents").isIntegralNumber()).isTrue();
    assertThat(row.path("amount_cents").asLong()).isEqualTo(12345L);
    assertThat(row.path("order_id").asLong()).isEqualTo(7L);
    assertThat(row.path("status").asText()).isEqualTo("NEW");
    assertThat(row.path("updated_at").asLong()).isEqualTo(1_700_000_000_000L);
    // What the repair strategy json-intended-row reads.
    IntendedRow intended = IntendedRow.parse(payload);
    assertThat(intended.operation()).isEqualTo("c");
    assertThat(intended.row().path("amount_cents").asLong()).isEqualTo(12345L);
  }

  @Test
  void aValueThatIsNoNumberCannotBeTurnedBack() {
    byte[] wire = AvroWire.encode(42, RETYPED, event("twelve"));

    assertThatThrownBy(() -> IntendedRowDecoder.intendedPayload(wire, RETYPED, "amount_cents"))
        .isInstanceOf(ScenarioFailure.class)
        .hasMessageContaining("field amount_cents of the retyped event holds no whole number");
  }

  @Test
  void bytesOfAnotherSchemaDoNotDecode() {
    byte[] wire = AvroWire.encode(42, RETYPED, event("1"));
    byte[] truncated = Arrays.copyOf(wire, 8);

    assertThatThrownBy(() -> IntendedRowDecoder.intendedPayload(truncated, RETYPED, "amount_cents"))
        .isInstanceOf(ScenarioFailure.class)
        .hasMessageContaining("does not decode with its writer schema");
  }

  private static GenericData.Record event(String amount) {
    Schema rowSchema = RETYPED.getField("after").schema().getTypes().get(1);
    GenericData.Record row = new GenericData.Record(rowSchema);
    row.put("order_id", 7L);
    row.put("amount_cents", amount);
    row.put("status", "NEW");
    row.put("updated_at", 1_700_000_000_000L);
    GenericData.Record event = new GenericData.Record(RETYPED);
    event.put("after", row);
    event.put("op", "c");
    return event;
  }
}
