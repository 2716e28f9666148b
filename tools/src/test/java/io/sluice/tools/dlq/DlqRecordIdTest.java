package io.sluice.tools.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.tools.dlq.kafka.Coordinates;
import org.junit.jupiter.api.Test;

class DlqRecordIdTest {

  @Test
  void parsesEveryFormTheCommandsPrint() {
    Coordinates at = new Coordinates("broker.cdc-lab.orders.dlq", 2, 17);

    assertThat(DlqRecordId.parse("17")).isEqualTo(new DlqRecordId(null, null, 17));
    assertThat(DlqRecordId.parse(DlqRecordId.of(at))).isEqualTo(new DlqRecordId(null, 2, 17));
    assertThat(DlqRecordId.parse(at.toString()))
        .isEqualTo(new DlqRecordId("broker.cdc-lab.orders.dlq", 2, 17));
  }

  @Test
  void printsAsItWasGiven() {
    for (String id : new String[] {"17", "2@17", "a-b.dlq-2@17"}) {
      assertThat(DlqRecordId.parse(id)).hasToString(id);
    }
  }

  @Test
  void rejectsWhatIsNoIdWithTheAcceptedForms() {
    for (String bad : new String[] {"", "-1", "1@", "@1", "a@1", "1@2@3", "0-0", "1@-2", "9e9@1"}) {
      assertThatThrownBy(() -> DlqRecordId.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "'"
                  + bad
                  + "' is not a DLQ record id; give <offset>, <partition>@<offset> or"
                  + " <dlq-topic>-<partition>@<offset> (as `sluice dlq list` prints it: 1@42)");
    }
  }
}
