package io.sluice.tools.dlq.record;

import static io.sluice.tools.dlq.testing.ZombieFixtures.CLEAN_INPUT;
import static io.sluice.tools.dlq.testing.ZombieFixtures.DLQ;
import static io.sluice.tools.dlq.testing.ZombieFixtures.MAIN_INPUT;
import static io.sluice.tools.dlq.testing.ZombieFixtures.SUCCESSOR_AT;
import static io.sluice.tools.dlq.testing.ZombieFixtures.ZOMBIE_AT;
import static io.sluice.tools.dlq.testing.ZombieFixtures.bytes;
import static io.sluice.tools.dlq.testing.ZombieFixtures.record;
import static io.sluice.tools.dlq.testing.ZombieFixtures.router;
import static io.sluice.tools.dlq.testing.ZombieFixtures.sink;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.dlq.DlqHeaders;
import io.sluice.tools.dlq.testing.ZombieFixtures;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** Fixed fixtures: what a zombie sink task and its successor both write for one input. */
class DlqInputsTest {
  @Test
  void aZombiesCopyOfASinkInputIsOneInputWhoseFirstRecordIsTheLowestOffset() {
    DlqEntry zombie = sink(0, 5, "sluice-upsert-sink", 0, CLEAN_INPUT, ZOMBIE_AT);
    DlqEntry router = router(0, 6, MAIN_INPUT);
    DlqEntry successor = sink(0, 7, "sluice-upsert-sink", 2, CLEAN_INPUT, SUCCESSOR_AT);

    DlqInputs inputs = DlqInputs.of(List.of(zombie, router, successor));

    assertThat(inputs.inputs()).hasSize(2);
    QuarantinedInput sinkInput = inputs.inputs().get(0);
    assertThat(sinkInput.identity())
        .isEqualTo(new InputIdentity(InputIdentity.Stage.SINK, "sluice-upsert-sink", CLEAN_INPUT));
    assertThat(sinkInput.identity())
        .hasToString("sink sluice-upsert-sink input broker.cdc_lab.orders.clean-1@40");
    assertThat(sinkInput.first()).isSameAs(zombie);
    assertThat(sinkInput.laterCopies()).containsExactly(successor);
    assertThat(sinkInput.copies()).isEqualTo(2);
    assertThat(inputs.inputOf(successor)).isSameAs(sinkInput);
    assertThat(inputs.inputOf(successor).isFirst(successor)).isFalse();
    assertThat(inputs.inputs().get(1).identity())
        .isEqualTo(new InputIdentity(InputIdentity.Stage.ROUTER, null, MAIN_INPUT));
    assertThat(inputs.inputs().get(1).copies()).isEqualTo(1);
    assertThat(inputs.laterCopies()).isEqualTo(1);
  }

  @Test
  void twoConnectorsQuarantiningTheSameInputAreTwoInputs() {
    DlqEntry upsert = sink(0, 5, "sluice-upsert-sink", 0, CLEAN_INPUT, ZOMBIE_AT);
    DlqEntry other = sink(0, 6, "sluice-other-sink", 0, CLEAN_INPUT, ZOMBIE_AT);

    DlqInputs inputs = DlqInputs.of(List.of(upsert, other));

    assertThat(inputs.inputs()).extracting(QuarantinedInput::copies).containsExactly(1, 1);
    assertThat(inputs.laterCopies()).isZero();
  }

  @Test
  void theConnectorComesFromTheConnectHeaderOfAConnectDlqRecord() {
    RecordHeaders headers = new RecordHeaders();
    add(headers, DlqHeaders.CONNECT_TOPIC, CLEAN_INPUT.topic());
    add(headers, DlqHeaders.CONNECT_PARTITION, "1");
    add(headers, DlqHeaders.CONNECT_OFFSET, "40");
    add(headers, DlqHeaders.CONNECT_CONNECTOR_NAME, "sluice-changelog-sink");
    add(headers, DlqHeaders.CONNECT_STAGE, "VALUE_CONVERTER");
    DlqEntry connect = DlqRecords.entry(record(0, 3, bytes("not avro"), headers));

    assertThat(InputIdentity.of(connect))
        .isEqualTo(
            new InputIdentity(InputIdentity.Stage.SINK, "sluice-changelog-sink", CLEAN_INPUT));
  }

  @Test
  void copiesInSeveralPartitionsHaveTheEarliestQuarantineFirst() {
    DlqEntry later = sink(0, 2, "sluice-upsert-sink", 0, CLEAN_INPUT, SUCCESSOR_AT);
    DlqEntry earlier = sink(2, 9, "sluice-upsert-sink", 1, CLEAN_INPUT, ZOMBIE_AT);

    QuarantinedInput input = DlqInputs.of(List.of(later, earlier)).inputs().get(0);

    assertThat(input.first()).isSameAs(earlier);
    assertThat(input.laterCopies()).containsExactly(later);
  }

  @Test
  void routerRecordsOfOneInputAreGroupedTheSameWay() {
    // exactly_once_v2 never writes two; at_least_once may after a crash.
    DlqEntry first = router(1, 3, MAIN_INPUT);
    DlqEntry again = router(1, 4, MAIN_INPUT);

    DlqInputs inputs = DlqInputs.of(List.of(first, again));

    assertThat(inputs.inputs()).hasSize(1);
    assertThat(inputs.inputs().get(0).first()).isSameAs(first);
    assertThat(inputs.inputs().get(0).identity().stage()).isEqualTo(InputIdentity.Stage.ROUTER);
  }

  @Test
  void anUnreadableRecordIsAnInputOfItsOwn() {
    DlqEntry unreadable = DlqRecords.entry(record(0, 0, bytes("garbage"), new RecordHeaders()));
    DlqEntry copy = sink(0, 1, "sluice-upsert-sink", 0, CLEAN_INPUT, ZOMBIE_AT);

    DlqInputs inputs = DlqInputs.of(List.of(unreadable, unreadable, copy));

    assertThat(inputs.inputs()).hasSize(3);
    assertThat(inputs.inputs().get(0).identity()).isNull();
    assertThatThrownBy(() -> InputIdentity.of(unreadable))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "DLQ record " + DLQ + "-0@0 could not be read, so it names no input: not a DLQ");
  }

  @Test
  void anEnvelopeFromAFileIsAnInputOfItsOwn() {
    DlqEntry copy = sink(0, 1, "sluice-upsert-sink", 0, CLEAN_INPUT, ZOMBIE_AT);
    DlqEntry file =
        DlqRecords.fromFile(
            new String(ZombieFixtures.sinkValue(CLEAN_INPUT, ZOMBIE_AT), StandardCharsets.UTF_8));

    QuarantinedInput input = DlqInputs.of(List.of(copy)).inputOf(file);

    assertThat(input.first()).isSameAs(file);
    assertThat(input.copies()).isEqualTo(1);
  }

  private static void add(Headers headers, String key, String value) {
    headers.add(key, bytes(value));
  }
}
