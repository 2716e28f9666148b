package io.sluice.tools.dlq.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class IntendedRowTest {

  private static IntendedRow parse(String json) {
    return IntendedRow.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void theWrapperGivesTheRowTheOperationAndTheFormat() {
    IntendedRow row =
        parse(
            "{\"intended_after\": {\"order_id\": 1}, \"intended_operation\": \"u\","
                + " \"repair_format\": \"lab-v1\", \"note\": \"ignored\"}");

    assertThat(row.operation()).isEqualTo("u");
    assertThat(row.row().get("order_id").asLong()).isEqualTo(1);
    assertThat(row.repairFormat()).isEqualTo("lab-v1");
  }

  @Test
  void aBareRowIsAnInsert() {
    IntendedRow row = parse("{\"order_id\": 1, \"status\": \"NEW\"}");

    assertThat(row.operation()).isEqualTo("c");
    assertThat(row.row().get("status").asText()).isEqualTo("NEW");
    assertThat(row.repairFormat()).isNull();
  }

  @Test
  void aDeleteMayNameItsRowIntendedBefore() {
    IntendedRow row =
        parse("{\"intended_operation\": \"d\", \"intended_before\": {\"order_id\": 3}}");

    assertThat(row.operation()).isEqualTo("d");
    assertThat(row.row().get("order_id").asLong()).isEqualTo(3);
  }

  @Test
  void anUnknownOperationIsRefused() {
    assertThatThrownBy(
            () -> parse("{\"intended_after\": {\"order_id\": 1}, \"intended_operation\": \"x\"}"))
        .isInstanceOf(RepairException.class)
        .hasMessage("intended_operation must be \"c\", \"u\" or \"d\"");
  }

  @Test
  void aWrapperWithoutARowIsRefused() {
    assertThatThrownBy(() -> parse("{\"intended_operation\": \"c\", \"intended_after\": 5}"))
        .isInstanceOf(RepairException.class)
        .hasMessage("intended_after must be a JSON object with the row's columns");
  }

  @Test
  void payloadsThatAreNotJsonObjectsAreRefusedWithoutQuotingThem() {
    assertThatThrownBy(() -> parse("secret-not-json"))
        .isInstanceOf(RepairException.class)
        .hasMessageStartingWith("the payload (15 bytes) is not JSON")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> parse("[1, 2]"))
        .isInstanceOf(RepairException.class)
        .hasMessageStartingWith("the payload is JSON but not an object");
    assertThatThrownBy(() -> IntendedRow.parse(new byte[] {0, 0, 0, 0, 1, (byte) 0xff}))
        .isInstanceOf(RepairException.class)
        .hasMessage(
            "the payload (6 bytes) is not UTF-8 text; the json-intended-row strategy needs JSON");
    assertThatThrownBy(() -> IntendedRow.parse(null))
        .isInstanceOf(RepairException.class)
        .hasMessage("the payload is null: there is no intended row to repair");
  }
}
