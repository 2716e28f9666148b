package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.sluice.dlq.DlqFormat;
import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class DlqBacklogTest {
  private static final String SOURCE = "broker.cdc_lab.orders";
  private static final String DLQ = SOURCE + ".dlq";
  private static final String LEDGER = Ledger.topicFor(DLQ);
  // Kafka Streams gives a DLQ record the input record's timestamp: a day before the quarantine.
  private static final long PRODUCED_MS = Instant.parse("2026-02-28T09:00:00Z").toEpochMilli();
  private static final Instant FIRST = Instant.parse("2026-03-01T10:00:00Z");
  private static final Instant SECOND = Instant.parse("2026-03-01T11:00:00Z");

  private final DlqBacklog backlog = new DlqBacklog(DLQ, LEDGER);
  private long ledgerOffset;

  @Test
  void anUnhandledRecordIsInTheBacklogWithItsEnvelopesQuarantineTime() {
    backlog.dlqRecord(dlqRecord(0, 5, original(7), SECOND));
    backlog.dlqRecord(dlqRecord(1, 2, original(3), FIRST));

    DlqSnapshot snapshot = backlog.snapshot();
    assertThat(snapshot.records()).isEqualTo(2);
    assertThat(snapshot.backlog()).isEqualTo(2);
    assertThat(snapshot.oldestQuarantinedAt()).isEqualTo(FIRST);
    assertThat(snapshot.repaired()).isZero();
    assertThat(snapshot.replayed()).isZero();
  }

  @Test
  void anEntryUnderTheDlqKeyHandlesTheRecordOnceTheLedgerIsSettled() {
    Coordinates dlq = new Coordinates(DLQ, 0, 5);
    backlog.dlqRecord(dlqRecord(0, 5, original(7), FIRST));
    backlog.dlqRecord(dlqRecord(0, 6, original(8), SECOND));

    backlog.ledgerRecord(ledger(dlq, LedgerEntry.Action.REPAIR, dlq, original(7)));
    assertThat(backlog.snapshot().backlog()).as("before settleLedger").isEqualTo(2);
    backlog.settleLedger();

    DlqSnapshot snapshot = backlog.snapshot();
    assertThat(snapshot.backlog()).isEqualTo(1);
    assertThat(snapshot.oldestQuarantinedAt()).isEqualTo(SECOND);
    assertThat(snapshot.repaired()).isEqualTo(1);
    assertThat(snapshot.replayed()).isZero();
    assertThat(snapshot.records()).isEqualTo(2);
  }

  @Test
  void anEntryFromAFileHandlesTheRecordWithTheSameOriginalCoordinates() {
    backlog.dlqRecord(dlqRecord(2, 0, original(41), FIRST));

    backlog.ledgerRecord(
        ledger(
            DlqFixtures.fileLedgerKey(original(41)),
            LedgerEntry.Action.REPLAY,
            null,
            original(41)));
    backlog.settleLedger();

    assertThat(backlog.snapshot().backlog()).isZero();
    assertThat(backlog.snapshot().oldestQuarantinedAt()).isNull();
    assertThat(backlog.snapshot().replayed()).isEqualTo(1);
  }

  @Test
  void aRecordWhoseEntryWasReadFirstNeverEntersTheBacklog() {
    Coordinates dlq = new Coordinates(DLQ, 1, 9);
    backlog.ledgerRecord(ledger(dlq, LedgerEntry.Action.REPLAY, dlq, original(12)));
    backlog.settleLedger();

    backlog.dlqRecord(dlqRecord(1, 9, original(12), FIRST));

    assertThat(backlog.snapshot().backlog()).isZero();
    assertThat(backlog.snapshot().records()).isEqualTo(1);
  }

  @Test
  void aTombstoneTakesAnEntryBackAndARescanBringsTheRecordBackWithoutCountingItTwice() {
    Coordinates dlq = new Coordinates(DLQ, 0, 0);
    ConsumerRecord<byte[], byte[]> record = dlqRecord(0, 0, original(1), FIRST);
    ConsumerRecord<byte[], byte[]> unreadable = unreadable(0, 1);
    backlog.dlqRecord(record);
    backlog.dlqRecord(unreadable);
    backlog.ledgerRecord(ledger(dlq, LedgerEntry.Action.REPAIR, dlq, original(1)));
    backlog.settleLedger();
    assertThat(backlog.takeRescan()).isFalse();
    assertThat(backlog.snapshot().backlog()).isZero();

    backlog.ledgerRecord(tombstone(DlqFixtures.ledgerKey(dlq)));
    backlog.settleLedger();
    assertThat(backlog.takeRescan()).isTrue();
    assertThat(backlog.takeRescan()).as("asked once").isFalse();
    backlog.restart();
    backlog.dlqRecord(record);
    backlog.dlqRecord(unreadable);

    DlqSnapshot snapshot = backlog.snapshot();
    assertThat(snapshot.backlog()).isEqualTo(1);
    assertThat(snapshot.oldestQuarantinedAt()).isEqualTo(FIRST);
    assertThat(snapshot.records()).isEqualTo(2);
    assertThat(snapshot.unreadableRecords()).isEqualTo(1);
    assertThat(snapshot.repaired()).as("a tombstone is no repair").isEqualTo(1);
  }

  @Test
  void aTombstoneForAKeyTheLedgerDoesNotHoldAsksForNoRescan() {
    backlog.ledgerRecord(tombstone(DlqFixtures.ledgerKey(new Coordinates(DLQ, 0, 3))));

    assertThat(backlog.takeRescan()).isFalse();
  }

  @Test
  void anEntryRewrittenForOtherOriginalCoordinatesAsksForARescan() {
    Coordinates dlq = new Coordinates(DLQ, 0, 0);
    backlog.ledgerRecord(ledger(dlq, LedgerEntry.Action.REPAIR, dlq, original(1)));
    backlog.ledgerRecord(ledger(dlq, LedgerEntry.Action.REPAIR, dlq, original(1)));
    assertThat(backlog.takeRescan()).as("same entry again").isFalse();

    backlog.ledgerRecord(ledger(dlq, LedgerEntry.Action.REPAIR, dlq, original(2)));

    assertThat(backlog.takeRescan()).isTrue();
  }

  @Test
  void anUnreadableDlqRecordIsCountedAndLeftOutOfTheBacklog() {
    backlog.dlqRecord(unreadable(0, 0));
    backlog.dlqRecord(dlqRecord(0, 1, original(1), SECOND));

    DlqSnapshot snapshot = backlog.snapshot();
    assertThat(snapshot.records()).isEqualTo(2);
    assertThat(snapshot.unreadableRecords()).isEqualTo(1);
    assertThat(snapshot.backlog()).isEqualTo(1);
    assertThat(snapshot.oldestQuarantinedAt()).isEqualTo(SECOND);
  }

  @Test
  void anUnreadableLedgerRecordIsCountedAndChangesNothing() {
    backlog.dlqRecord(dlqRecord(0, 0, original(1), FIRST));

    backlog.ledgerRecord(
        new ConsumerRecord<>(
            LEDGER, 0, ledgerOffset++, bytes("x"), bytes("{\"ledger_version\":9}")));
    backlog.ledgerRecord(new ConsumerRecord<>(LEDGER, 0, ledgerOffset++, null, bytes("{}")));
    backlog.settleLedger();

    DlqSnapshot snapshot = backlog.snapshot();
    assertThat(snapshot.unreadableLedgerRecords()).isEqualTo(2);
    assertThat(snapshot.backlog()).isEqualTo(1);
    assertThat(snapshot.repaired() + snapshot.replayed()).isZero();
  }

  @Test
  void aRawDlqRecordHasNoEnvelopeSoItsTimestampIsTheQuarantineTime() {
    Coordinates original = original(4);
    byte[] value = DlqFixtures.value(DlqFormat.RAW, original, PRODUCED_MS, FIRST);
    backlog.dlqRecord(record(0, 0, PRODUCED_MS, value, DlqFixtures.headers(original, PRODUCED_MS)));

    assertThat(backlog.snapshot().backlog()).isEqualTo(1);
    assertThat(backlog.snapshot().oldestQuarantinedAt())
        .isEqualTo(Instant.ofEpochMilli(PRODUCED_MS));
  }

  @Test
  void recordsAndBacklogAreCountedByTheStageThatQuarantinedThemAndTheirCode() {
    Coordinates clean = new Coordinates(SOURCE + ".clean", 0, 0);
    backlog.dlqRecord(dlqRecord(0, 0, original(1), FIRST));
    backlog.dlqRecord(
        record(
            0,
            1,
            PRODUCED_MS,
            DlqFixtures.sinkValue(clean, PRODUCED_MS, SECOND),
            DlqFixtures.sinkHeaders(clean, PRODUCED_MS)));
    Coordinates changelog = new Coordinates(SOURCE + ".clean", 0, 1);
    backlog.dlqRecord(
        record(0, 2, PRODUCED_MS, bytes("not avro"), DlqFixtures.connectHeaders(changelog)));
    backlog.dlqRecord(unreadable(0, 3));
    Coordinates sinkDlq = new Coordinates(DLQ, 0, 1);
    backlog.ledgerRecord(ledger(sinkDlq, LedgerEntry.Action.REPLAY, sinkDlq, clean));
    backlog.settleLedger();

    DlqSnapshot snapshot = backlog.snapshot();
    QuarantineCause router = new QuarantineCause("router", "NOT_AVRO_WIRE_FORMAT");
    QuarantineCause upsert = new QuarantineCause("sink", "SINK_DECIMAL_OUT_OF_RANGE");
    QuarantineCause connect = new QuarantineCause("sink", "SINK_CONNECT_VALUE_CONVERTER");
    assertThat(snapshot.recordsByCause())
        .containsOnly(
            entry(router, 1L),
            entry(upsert, 1L),
            entry(connect, 1L),
            entry(QuarantineCause.UNREADABLE, 1L));
    assertThat(snapshot.backlogByCause())
        .as("the replayed sink record is handled; the unreadable one is never in the backlog")
        .containsOnly(entry(router, 1L), entry(connect, 1L));
    assertThat(snapshot.records()).isEqualTo(4);
    assertThat(snapshot.backlog()).isEqualTo(2);
  }

  @Test
  void aZombiesSecondDlqRecordOfAnInputIsOneMoreRecordButNoSecondInput() {
    Coordinates clean = new Coordinates(SOURCE + ".clean", 1, 40);
    ConsumerRecord<byte[], byte[]> zombie = sinkRecord(0, 3, clean, SECOND, 0);
    ConsumerRecord<byte[], byte[]> successor = sinkRecord(0, 5, clean, FIRST, 2);
    backlog.dlqRecord(zombie);
    backlog.dlqRecord(dlqRecord(0, 4, original(7), SECOND));
    backlog.dlqRecord(successor);

    DlqSnapshot snapshot = backlog.snapshot();
    QuarantineCause upsert = new QuarantineCause("sink", "SINK_DECIMAL_OUT_OF_RANGE");
    assertThat(snapshot.recordsByCause()).containsEntry(upsert, 2L);
    assertThat(snapshot.inputsByCause()).containsEntry(upsert, 1L);
    assertThat(snapshot.backlogByCause()).containsEntry(upsert, 1L);
    assertThat(snapshot.records()).isEqualTo(3);
    assertThat(snapshot.inputs()).isEqualTo(2);
    assertThat(snapshot.backlog()).isEqualTo(2);
    assertThat(snapshot.oldestQuarantinedAt())
        .as("the input's earliest quarantine, whichever copy holds it")
        .isEqualTo(FIRST);

    Coordinates first = new Coordinates(DLQ, 0, 3);
    backlog.ledgerRecord(ledger(first, LedgerEntry.Action.REPLAY, first, clean));
    backlog.settleLedger();
    assertThat(backlog.snapshot().backlogByCause())
        .as("both copies handled")
        .doesNotContainKey(upsert);
    assertThat(backlog.snapshot().backlog()).isEqualTo(1);

    backlog.ledgerRecord(tombstone(DlqFixtures.ledgerKey(first)));
    backlog.settleLedger();
    assertThat(backlog.takeRescan()).isTrue();
    backlog.restart();
    backlog.dlqRecord(zombie);
    backlog.dlqRecord(successor);
    assertThat(backlog.snapshot().backlogByCause()).containsEntry(upsert, 1L);
    assertThat(backlog.snapshot().inputsByCause()).containsEntry(upsert, 1L);
    assertThat(backlog.snapshot().recordsByCause()).containsEntry(upsert, 2L);
  }

  @Test
  void aLedgerEntryForTheLaterCopyHandlesTheInput() {
    Coordinates clean = new Coordinates(SOURCE + ".clean", 1, 40);
    backlog.dlqRecord(sinkRecord(0, 3, clean, FIRST, 0));
    backlog.dlqRecord(sinkRecord(0, 5, clean, SECOND, 2));

    Coordinates copy = new Coordinates(DLQ, 0, 5);
    backlog.ledgerRecord(ledger(copy, LedgerEntry.Action.REPAIR, copy, clean));
    backlog.settleLedger();

    assertThat(backlog.snapshot().backlog()).isZero();
    assertThat(backlog.snapshot().oldestQuarantinedAt()).isNull();
  }

  @Test
  void twoConnectorsQuarantiningTheSameInputAreTwoInputs() {
    Coordinates clean = new Coordinates(SOURCE + ".clean", 1, 40);
    backlog.dlqRecord(sinkRecord(0, 3, clean, FIRST, 0));
    backlog.dlqRecord(
        record(0, 4, PRODUCED_MS, bytes("not avro"), DlqFixtures.connectHeaders(clean)));

    assertThat(backlog.snapshot().inputs()).isEqualTo(2);
    assertThat(backlog.snapshot().backlog()).isEqualTo(2);
  }

  private static ConsumerRecord<byte[], byte[]> sinkRecord(
      int partition, long offset, Coordinates input, Instant quarantinedAt, int task) {
    return record(
        partition,
        offset,
        PRODUCED_MS,
        DlqFixtures.sinkValue(input, PRODUCED_MS, quarantinedAt, task),
        DlqFixtures.sinkHeaders(input, PRODUCED_MS, task));
  }

  private static Coordinates original(long offset) {
    return new Coordinates(SOURCE, 1, offset);
  }

  private static ConsumerRecord<byte[], byte[]> dlqRecord(
      int partition, long offset, Coordinates original, Instant quarantinedAt) {
    return record(
        partition,
        offset,
        PRODUCED_MS,
        DlqFixtures.value(DlqFormat.ENVELOPE, original, PRODUCED_MS, quarantinedAt),
        DlqFixtures.headers(original, PRODUCED_MS));
  }

  private static ConsumerRecord<byte[], byte[]> unreadable(int partition, long offset) {
    return record(partition, offset, PRODUCED_MS, bytes("garbage"), new RecordHeaders());
  }

  private static ConsumerRecord<byte[], byte[]> record(
      int partition, long offset, long timestampMs, byte[] value, Headers headers) {
    return new ConsumerRecord<>(
        DLQ,
        partition,
        offset,
        timestampMs,
        TimestampType.CREATE_TIME,
        -1,
        value.length,
        bytes("key"),
        value,
        headers,
        Optional.empty());
  }

  private ConsumerRecord<byte[], byte[]> ledger(
      Coordinates key, LedgerEntry.Action action, Coordinates dlq, Coordinates original) {
    return ledger(DlqFixtures.ledgerKey(key), action, dlq, original);
  }

  private ConsumerRecord<byte[], byte[]> ledger(
      String key, LedgerEntry.Action action, Coordinates dlq, Coordinates original) {
    return new ConsumerRecord<>(
        LEDGER,
        0,
        ledgerOffset++,
        bytes(key),
        DlqFixtures.entry(action, dlq, original).toJsonBytes());
  }

  private ConsumerRecord<byte[], byte[]> tombstone(String key) {
    return new ConsumerRecord<>(LEDGER, 0, ledgerOffset++, bytes(key), null);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
