package io.sluice.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.dlq.Sha256;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ScenarioRowsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theIntendedRowOfASeedIsTheSameOnEveryRun() throws Exception {
    byte[] payload = JSON.writeValueAsBytes(ScenarioRows.intendedPayload(ScenarioRows.row(3, 31)));

    assertThat(new String(payload, StandardCharsets.UTF_8))
        .startsWith(
            "{\"intended_after\":{\"order_id\":300000031,\"business_key\":\"ORD-3-300000031\",")
        .endsWith(
            ",\"event_id\":300000031,\"seed\":3,\"updated_at\":\"2033-07-04 05:20:31.000\"},"
                + "\"intended_operation\":\"c\"}");
    // The payload_sha256 a `sluice verify --seed 3 --baseline-rows 30` run reported.
    assertThat(Sha256.hex(payload))
        .isEqualTo("4c01bc6a5e280a0729895adfc5689af252e974544ec3204a5087f1def057c744");
  }

  @Test
  void theRowAfterTheIntendedOneIsTheNextOrderOfTheSeed() {
    assertThat(ScenarioRows.row(3, 32).orderId()).isEqualTo(ScenarioRows.row(3, 31).orderId() + 1);
    assertThat(ScenarioRows.row(3, 32).eventId()).isEqualTo(300000032L);
    assertThat(ScenarioRows.row(4, 31)).isNotEqualTo(ScenarioRows.row(3, 31));
  }
}
