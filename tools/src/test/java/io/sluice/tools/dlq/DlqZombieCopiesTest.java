package io.sluice.tools.dlq;

import static io.sluice.tools.dlq.testing.OrdersStack.CLEAN;
import static io.sluice.tools.dlq.testing.OrdersStack.DLQ;
import static io.sluice.tools.dlq.testing.OrdersStack.LEDGER;
import static io.sluice.tools.dlq.testing.OrdersStack.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.schema.Subjects;
import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.testing.OrdersStack;
import io.sluice.tools.dlq.testing.OrdersStack.Run;
import io.sluice.tools.dlq.testing.TestSchemas;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * An input the upsert sink quarantined twice, as a zombie task and its successor do before the
 * Iceberg offset fence stops the zombie: the tools list, count, show, replay and repair it once.
 */
class DlqZombieCopiesTest {
  private static final String UPSERT = "sluice-upsert-sink";
  private final OrdersStack stack = new OrdersStack();
  private final int partition = stack.partitionOf(42);
  private final long clean =
      stack.cleanRecord(
          42, OrdersStack.event(TestSchemas.ordersEnvelope(), stack.valueSchemaId, 42, 100L));

  @Test
  void listShowsOneLinePerInputWithItsCopies() {
    long zombie = stack.sinkQuarantined(42, clean, UPSERT, 0, NOW.minusSeconds(90));
    long poison = stack.poison(42, "{}");
    long successor = stack.sinkQuarantined(42, clean, UPSERT, 2, NOW.minusSeconds(60));

    Run run = stack.dlq("list");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().lines().findFirst().orElseThrow()).containsPattern("AGE +COPIES +STATUS$");
    assertThat(run.out())
        .containsPattern(
            "\n"
                + partition
                + "@"
                + zombie
                + " +"
                + CLEAN
                + "-"
                + partition
                + "@"
                + clean
                + " +sink "
                + UPSERT
                + "/0 +SINK_DECIMAL_OUT_OF_RANGE +1m30s +2 +-\n")
        .containsPattern("\n" + partition + "@" + poison + " +.* +router +.* +1 +-\n")
        .doesNotContain("\n" + partition + "@" + successor + " ")
        .contains(
            "2 input(s) in "
                + DLQ
                + " (3 DLQ record(s), 1 of them later copies a zombie sink task wrote)");
  }

  @Test
  void twoConnectorsQuarantiningTheSameInputAreTwoInputs() {
    stack.sinkQuarantined(42, clean, UPSERT, 0, NOW.minusSeconds(90));
    stack.sinkQuarantined(42, clean, "sluice-other-sink", 0, NOW.minusSeconds(90));

    Run run = stack.dlq("list");

    assertThat(run.out())
        .containsPattern("sink " + UPSERT + "/0 .* 1 +-\n")
        .containsPattern("sink sluice-other-sink/0 .* 1 +-\n")
        .contains("2 input(s) in " + DLQ + " (2 DLQ record(s))");
  }

  @Test
  void showOfALaterCopyNamesTheFirstAndTheFirstNamesItsCopies() {
    long zombie = stack.sinkQuarantined(42, clean, UPSERT, 0, NOW.minusSeconds(90));
    long successor = stack.sinkQuarantined(42, clean, UPSERT, 2, NOW.minusSeconds(60));

    Run copy = stack.dlq("show", partition + "@" + successor);
    Run first = stack.dlq("show", partition + "@" + zombie);

    assertThat(copy.exitCode()).as(copy.err()).isZero();
    assertThat(copy.out())
        .contains(
            "copy_of          "
                + dlq(zombie)
                + " (this record is a later copy of sink "
                + UPSERT
                + " input "
                + CLEAN
                + "-"
                + partition
                + "@"
                + clean
                + ": a zombie sink task quarantined it again; list, replay and repair use the"
                + " first)")
        .contains("stage            sink " + UPSERT + "/2");
    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(first.out())
        .contains(
            "copies           2 (later: "
                + dlq(successor)
                + "; a zombie sink task quarantined the input again)")
        .doesNotContain("copy_of");
  }

  @Test
  void replayAllProducesTheInputOnceAndARerunSkipsBothCopies() {
    long zombie = stack.sinkQuarantined(42, clean, UPSERT, 0, NOW.minusSeconds(90));
    long successor = stack.sinkQuarantined(42, clean, UPSERT, 2, NOW.minusSeconds(60));

    Run run = stack.dlq("replay", "--all");
    Run again = stack.dlq("replay", "--all");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("replayed DLQ record " + dlq(zombie) + " -> " + CLEAN + "-" + partition + "@1")
        .contains(
            "DLQ record "
                + dlq(successor)
                + ": a later copy of sink "
                + UPSERT
                + " input "
                + CLEAN
                + "-"
                + partition
                + "@"
                + clean
                + " (a zombie sink task quarantined it again); skipping: an input is replayed once,"
                + " through its first record (DLQ record "
                + dlq(zombie)
                + ")")
        .contains(
            "replay: 1 replayed, 0 already done, 0 refused, 0 failed of 1 input(s);"
                + " 1 later DLQ copy skipped");
    assertThat(stack.kafka.records(CLEAN, partition)).hasSize(2);
    assertThat(stack.kafka.records(CLEAN, partition).get(1).value())
        .isEqualTo(stack.kafka.records(CLEAN, partition).get(0).value());
    assertThat(stack.kafka.records(LEDGER)).hasSize(1);
    assertThat(LedgerEntry.fromJson(stack.kafka.records(LEDGER).get(0).value()).dlq())
        .isEqualTo(new Coordinates(DLQ, partition, zombie));

    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out())
        .contains("DLQ record " + dlq(zombie) + ": already replayed at")
        .contains("DLQ record " + dlq(successor) + ": a later copy of")
        .contains(
            "replay: 0 replayed, 1 already done, 0 refused, 0 failed of 1 input(s);"
                + " 1 later DLQ copy skipped");
    assertThat(stack.kafka.records(CLEAN, partition)).hasSize(2);
    assertThat(stack.kafka.records(LEDGER)).hasSize(1);
    assertThat(stack.dlq("list").out()).containsPattern(" 2 +replayed " + NOW + " -> ");
  }

  @Test
  void replayOfALaterCopyActsOnTheInputThroughItsFirstRecord() {
    long zombie = stack.sinkQuarantined(42, clean, UPSERT, 0, NOW.minusSeconds(90));
    long successor = stack.sinkQuarantined(42, clean, UPSERT, 2, NOW.minusSeconds(60));

    Run run = stack.dlq("replay", partition + "@" + successor);
    Run first = stack.dlq("replay", partition + "@" + zombie);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(
            "DLQ record "
                + dlq(successor)
                + " is a later copy of sink "
                + UPSERT
                + " input "
                + CLEAN
                + "-"
                + partition
                + "@"
                + clean
                + " (a zombie sink task quarantined it again); acting on the input through its"
                + " first record, DLQ record "
                + dlq(zombie))
        .contains("replayed DLQ record " + dlq(zombie) + " -> ")
        .contains("of 1 input(s)\n");
    assertThat(stack.kafka.records(LEDGER).get(0).key())
        .isEqualTo(Ledger.keyOf(new Coordinates(DLQ, partition, zombie)).getBytes());
    assertThat(first.out()).contains("0 replayed, 1 already done");
    assertThat(stack.kafka.records(CLEAN, partition)).hasSize(2);
  }

  @Test
  void anInputReplayedThroughItsLaterCopyIsNotReplayedAgain() {
    long zombie = stack.sinkQuarantined(42, clean, UPSERT, 0, NOW.minusSeconds(90));
    long successor = stack.sinkQuarantined(42, clean, UPSERT, 2, NOW.minusSeconds(60));
    // What a run before the tools knew of copies wrote when it handled the later copy.
    Coordinates copy = new Coordinates(DLQ, partition, successor);
    stack.kafka.createTopic(LEDGER, 1);
    stack.kafka.append(
        LEDGER,
        0,
        Ledger.keyOf(copy).getBytes(StandardCharsets.UTF_8),
        new LedgerEntry(
                LedgerEntry.Action.REPLAY,
                null,
                NOW.minusSeconds(30),
                copy,
                new Coordinates(CLEAN, partition, clean),
                new Coordinates(CLEAN, partition, 1),
                false,
                "ab")
            .toJsonBytes(),
        null);

    Run run = stack.dlq("replay", "--all");

    assertThat(run.out())
        .contains("DLQ record " + dlq(zombie) + ": already replayed at")
        .contains("0 replayed, 1 already done, 0 refused, 0 failed of 1 input(s)");
    assertThat(stack.kafka.records(CLEAN, partition)).hasSize(1);
  }

  @Test
  void aDryRunSaysWhatItWouldProduceOncePerInput() {
    long zombie = stack.sinkQuarantined(42, clean, UPSERT, 0, NOW.minusSeconds(90));
    stack.sinkQuarantined(42, clean, UPSERT, 2, NOW.minusSeconds(60));

    Run run = stack.dlq("replay", "--all", "--dry-run");

    assertThat(run.out())
        .contains("dry run: would replay DLQ record " + dlq(zombie) + " -> topic " + CLEAN)
        .contains(
            "replay (dry run): 1 would be replayed, 0 already done, 0 refused, 0 failed of 1"
                + " input(s); 1 later DLQ copy skipped");
    assertThat(stack.kafka.records(CLEAN, partition)).hasSize(1);
  }

  @Test
  void repairAllRepairsTheInputOnceAndARerunSkipsBothCopies() {
    stack.registry.register(Subjects.key(CLEAN), TestSchemas.ordersKey());
    stack.registry.register(Subjects.value(CLEAN), TestSchemas.ordersEnvelope());
    long json =
        stack.cleanRecord(42, OrdersStack.intended(42, "u").getBytes(StandardCharsets.UTF_8));
    stack.sinkQuarantined(42, json, UPSERT, 0, NOW.minusSeconds(90));
    stack.sinkQuarantined(42, json, UPSERT, 1, NOW.minusSeconds(60));

    Run run = stack.dlq("repair", "--all", "--strategy", "json-intended-row");
    Run again = stack.dlq("repair", "--all", "--strategy", "json-intended-row");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(
            "repair: 1 repaired, 0 already done, 0 refused, 0 failed of 1 input(s);"
                + " 1 later DLQ copy skipped");
    assertThat(stack.kafka.records(CLEAN)).hasSize(3);
    assertThat(again.out())
        .contains(
            "repair: 0 repaired, 1 already done, 0 refused, 0 failed of 1 input(s);"
                + " 1 later DLQ copy skipped");
    assertThat(stack.kafka.records(CLEAN)).hasSize(3);
    assertThat(stack.kafka.records(LEDGER)).hasSize(1);
  }

  private String dlq(long offset) {
    return DLQ + "-" + partition + "@" + offset;
  }
}
