package io.sluice.tools.dlq.ledger;

import static io.sluice.tools.dlq.testing.ZombieFixtures.CLEAN_INPUT;
import static io.sluice.tools.dlq.testing.ZombieFixtures.DLQ;
import static io.sluice.tools.dlq.testing.ZombieFixtures.SUCCESSOR_AT;
import static io.sluice.tools.dlq.testing.ZombieFixtures.UPSERT_SINK;
import static io.sluice.tools.dlq.testing.ZombieFixtures.ZOMBIE_AT;
import static io.sluice.tools.dlq.testing.ZombieFixtures.sink;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.record.DlqEntry;
import io.sluice.tools.dlq.record.DlqInputs;
import io.sluice.tools.dlq.record.QuarantinedInput;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The ledger on an input a zombie sink task quarantined twice. */
class LedgerTest {
  private final DlqEntry first = sink(0, 5, UPSERT_SINK, 0, CLEAN_INPUT, ZOMBIE_AT);
  private final DlqEntry copy = sink(0, 7, UPSERT_SINK, 2, CLEAN_INPUT, SUCCESSOR_AT);
  private final QuarantinedInput input = DlqInputs.of(List.of(first, copy)).inputs().get(0);
  private final Ledger ledger = Ledger.empty(Ledger.topicFor(DLQ));
  private long ledgerOffset;

  @Test
  void anEntryForTheFirstRecordHandlesBothCopies() {
    apply(Ledger.keyOf(first), first.dlq());

    assertThat(ledger.find(input)).isPresent();
    assertThat(ledger.find(copy)).as("the copy alone, by its original coordinates").isPresent();
    assertThat(ledger.find(copy.dlq(), copy.original())).isPresent();
  }

  @Test
  void anEntryForTheLaterCopyHandlesTheInput() {
    apply(Ledger.keyOf(copy), copy.dlq());

    assertThat(ledger.find(input)).get().extracting(LedgerEntry::dlq).isEqualTo(copy.dlq());
    assertThat(ledger.find(first)).isPresent();
  }

  @Test
  void aTombstoneTakesTheInputBackForBothCopies() {
    apply(Ledger.keyOf(first), first.dlq());

    ledger.apply(
        new ConsumerRecord<>(
            ledger.topic(), 0, ledgerOffset++, Ledger.keyOf(first).getBytes(), null));

    assertThat(ledger.find(input)).isEmpty();
    assertThat(ledger.find(copy)).isEmpty();
  }

  @Test
  void anEntryForAnotherInputHandlesNeither() {
    apply("file:other:0:1", null, new Coordinates(CLEAN_INPUT.topic(), 1, 41));

    assertThat(ledger.find(input)).isEmpty();
  }

  private void apply(String key, Coordinates dlq) {
    apply(key, dlq, CLEAN_INPUT);
  }

  private void apply(String key, Coordinates dlq, Coordinates original) {
    LedgerEntry entry =
        new LedgerEntry(
            LedgerEntry.Action.REPLAY,
            null,
            Instant.parse("2026-03-01T12:00:00Z"),
            dlq,
            original,
            new Coordinates(original.topic(), original.partition(), 99),
            false,
            "ab");
    ledger.apply(
        new ConsumerRecord<>(
            ledger.topic(), 0, ledgerOffset++, key.getBytes(), entry.toJsonBytes()));
  }
}
