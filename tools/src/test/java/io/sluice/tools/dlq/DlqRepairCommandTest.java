package io.sluice.tools.dlq;

import static io.sluice.tools.dlq.testing.OrdersStack.CLEAN;
import static io.sluice.tools.dlq.testing.OrdersStack.DLQ;
import static io.sluice.tools.dlq.testing.OrdersStack.LEDGER;
import static io.sluice.tools.dlq.testing.OrdersStack.TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dlq.Sha256;
import io.sluice.schema.Subjects;
import io.sluice.schema.wire.WireFormat;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.repair.AvroWire;
import io.sluice.tools.dlq.repair.DebeziumEnvelopeBuilder;
import io.sluice.tools.dlq.testing.OrdersStack;
import io.sluice.tools.dlq.testing.OrdersStack.Run;
import io.sluice.tools.dlq.testing.TestSchemas;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice dlq repair} over MockConsumer/MockProducer and a map registry. */
class DlqRepairCommandTest {
  /** The project's exported envelope: order 42's intended row, original_topic test.shop.orders. */
  private static final String EXPORTED = "/dlq-envelope-intended-row.json";

  private final OrdersStack stack = new OrdersStack();

  private static String dlqKey(int partition, long offset) {
    return DLQ + ":" + partition + ":" + offset;
  }

  @Test
  void repairProducesTheEventKeyedByThePrimaryKeyAndItsLedgerEntryInOneTransaction()
      throws Exception {
    int partition = stack.partitionOf(42);
    long dlqOffset = stack.poison(42, OrdersStack.intended(42, "c"));

    Run run = stack.dlq("repair", String.valueOf(dlqOffset), "--strategy", "json-intended-row");

    assertThat(run.exitCode()).as(run.err()).isZero();
    List<ConsumerRecord<byte[], byte[]>> main = stack.kafka.records(TOPIC, partition);
    assertThat(main).hasSize(2);
    ConsumerRecord<byte[], byte[]> repaired = main.get(1);
    assertThat(repaired.key()).isEqualTo(stack.key(42));
    assertThat(WireFormat.schemaId(repaired.value())).isEqualTo(stack.valueSchemaId);
    GenericRecord event =
        (GenericRecord) AvroWire.decode(repaired.value(), TestSchemas.ordersEnvelope());
    GenericRecord after = (GenericRecord) event.get("after");
    assertThat(after.get("order_id")).isEqualTo(42L);
    assertThat(after.get("updated_at"))
        .isEqualTo(Instant.parse("2026-03-01T10:15:30.250Z").toEpochMilli());
    assertThat(event.get("op").toString()).isEqualTo("c");
    assertThat(((GenericRecord) event.get("source")).get("connector").toString())
        .isEqualTo(DebeziumEnvelopeBuilder.CONNECTOR);
    assertThat(stack.kafka.producers()).hasSize(1);
    assertThat(stack.kafka.producers().get(0).history().get(0).partition())
        .as("no explicit partition: the partitioner puts it in the key's partition")
        .isNull();
    assertThat(stack.kafka.producers().get(0).commitCount()).isEqualTo(1);

    List<ConsumerRecord<byte[], byte[]>> ledger = stack.kafka.records(LEDGER);
    assertThat(stack.kafka.compactedTopics()).containsExactly(LEDGER);
    assertThat(ledger).hasSize(1);
    assertThat(new String(ledger.get(0).key(), StandardCharsets.UTF_8))
        .isEqualTo(dlqKey(partition, dlqOffset));
    LedgerEntry entry = LedgerEntry.fromJson(ledger.get(0).value());
    assertThat(entry.action()).isEqualTo(LedgerEntry.Action.REPAIR);
    assertThat(entry.strategy()).isEqualTo("json-intended-row");
    assertThat(entry.produced().partition()).isEqualTo(partition);
    assertThat(entry.produced().offset()).isEqualTo(1);
    assertThat(entry.forced()).isFalse();
    assertThat(entry.valueSha256()).isEqualTo(Sha256.hex(repaired.value()));
    assertThat(entry.handledAt()).isEqualTo(OrdersStack.NOW);
    assertThat(run.out())
        .contains(
            "repaired DLQ record "
                + DLQ
                + "-"
                + partition
                + "@"
                + dlqOffset
                + " -> "
                + TOPIC
                + "-"
                + partition
                + "@1")
        .contains("repair: 1 repaired, 0 already done, 0 refused, 0 failed of 1 input(s)");
  }

  @Test
  void aSecondRunSkipsWhatTheLedgerHas() {
    long dlqOffset = stack.poison(42, OrdersStack.intended(42, "c"));
    stack.dlq("repair", String.valueOf(dlqOffset), "--strategy", "json-intended-row");
    int mainRecords = stack.kafka.records(TOPIC).size();

    Run again = stack.dlq("repair", "--all", "--strategy", "json-intended-row");

    assertThat(again.exitCode()).isZero();
    assertThat(again.out())
        .contains(": already repaired at " + OrdersStack.NOW)
        .contains("0 repaired, 1 already done");
    assertThat(stack.kafka.records(TOPIC)).hasSize(mainRecords);
    assertThat(stack.kafka.records(LEDGER)).hasSize(1);
    assertThat(stack.kafka.producers().get(1).history()).isEmpty();
  }

  @Test
  void theStaleWriteGuardRefusesWhenANewerEventForTheKeyFollowsAndForceOverridesIt() {
    long dlqOffset = stack.poison(42, OrdersStack.intended(42, "c"));
    long newer = stack.validEvent(42);
    int partition = stack.partitionOf(42);

    Run refused = stack.dlq("repair", String.valueOf(dlqOffset), "--strategy", "json-intended-row");

    assertThat(refused.exitCode()).isEqualTo(DlqCommand.EXIT_REFUSED);
    assertThat(refused.err())
        .contains("refusing to repair DLQ record " + DLQ + "-" + partition + "@" + dlqOffset)
        .contains(
            "a newer event for key {order_id=42} follows it at "
                + TOPIC
                + "-"
                + partition
                + "@"
                + newer)
        .contains("rerun with --force");
    assertThat(stack.kafka.records(TOPIC, partition)).hasSize(2);
    assertThat(stack.kafka.records(LEDGER)).isEmpty();

    Run forced =
        stack.dlq(
            "repair", String.valueOf(dlqOffset), "--strategy", "json-intended-row", "--force");

    assertThat(forced.exitCode()).as(forced.err()).isZero();
    assertThat(stack.kafka.records(TOPIC, partition)).hasSize(3);
    assertThat(LedgerEntry.fromJson(stack.kafka.records(LEDGER).get(0).value()).forced()).isTrue();
  }

  @Test
  void theGuardIgnoresOtherKeysAndOtherPoisonRecords() {
    stack.poison(42, OrdersStack.intended(42, "c"));
    stack.poison(42, OrdersStack.intended(42, "u")); // newer, but poison itself
    long other = findKeyInSamePartition(42);
    stack.validEvent(other);

    Run run = stack.dlq("repair", "--all", "--strategy", "json-intended-row");

    assertThat(run.exitCode()).as(run.err()).isZero();
    // The second repair follows the first in the key's partition: the ledger knows it is ours.
    assertThat(run.out()).contains("2 repaired, 0 already done, 0 refused, 0 failed");
  }

  @Test
  void aDryRunPrintsWhatWouldBeProducedAndWritesNothing() {
    long dlqOffset = stack.poison(42, OrdersStack.intended(42, "u"));
    int partition = stack.partitionOf(42);

    Run run =
        stack.dlq(
            "repair", String.valueOf(dlqOffset), "--strategy", "json-intended-row", "--dry-run");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("dry run: would repair DLQ record " + DLQ + "-" + partition + "@" + dlqOffset)
        .contains("topic " + TOPIC + ", partition " + partition + " (the key's partition)")
        .contains("key {order_id=42}")
        .contains("value schema id " + stack.valueSchemaId)
        .containsPattern("value sha256 [0-9a-f]{64}")
        .contains("op u");
    assertThat(stack.kafka.producers()).isEmpty();
    assertThat(stack.kafka.hasTopic(LEDGER)).isFalse();
    assertThat(stack.kafka.records(TOPIC, partition)).hasSize(1);
  }

  @Test
  void aFailureBetweenTheRecordAndItsLedgerEntryCommitsNeitherAndARerunProducesOnce() {
    long dlqOffset = stack.poison(42, OrdersStack.intended(42, "c"));
    int partition = stack.partitionOf(42);
    stack.kafka.failSendOfNextProducer(1); // its second send: the ledger record

    Run failed = stack.dlq("repair", String.valueOf(dlqOffset), "--strategy", "json-intended-row");

    assertThat(failed.exitCode()).isEqualTo(1);
    assertThat(failed.err())
        .contains(
            "cannot produce the repair of DLQ record " + DLQ + "-" + partition + "@" + dlqOffset)
        .contains("the transaction was aborted, nothing was written");
    assertThat(stack.kafka.records(TOPIC, partition)).hasSize(1);
    assertThat(stack.kafka.records(LEDGER)).isEmpty();

    Run rerun = stack.dlq("repair", String.valueOf(dlqOffset), "--strategy", "json-intended-row");

    assertThat(rerun.exitCode()).as(rerun.err()).isZero();
    assertThat(stack.kafka.records(TOPIC, partition)).hasSize(2);
    assertThat(stack.kafka.records(LEDGER)).hasSize(1);
  }

  @Test
  void aPayloadThatDoesNotFitFailsNamingTheFieldAndTheRecord() {
    long dlqOffset =
        stack.poison(
            42,
            "{\"order_id\": 42, \"customer\": \"ada\", \"amount_cents\": 1, \"colour\": \"red\"}");

    Run run = stack.dlq("repair", String.valueOf(dlqOffset), "--strategy", "json-intended-row");

    assertThat(run.exitCode()).isEqualTo(DlqCommand.EXIT_FAILED);
    assertThat(run.err())
        .contains("cannot repair DLQ record " + DLQ + "-" + stack.partitionOf(42) + "@" + dlqOffset)
        .contains("unknown field 'colour'")
        .contains("value schema " + TOPIC + "-value version 1, id " + stack.valueSchemaId)
        .doesNotContain("red");
    assertThat(stack.kafka.records(LEDGER)).isEmpty();
  }

  @Test
  void anEnvelopeFromAFileIsRepairedOnceAndLedgeredByItsOriginalCoordinates(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("envelope.json");
    Files.writeString(file, TestSchemas.resource("/dlq-envelope-intended-row.json"));

    Run run =
        stack.dlq("repair", "--from-file", file.toString(), "--strategy", "json-intended-row");
    Run again =
        stack.dlq("repair", "--from-file", file.toString(), "--strategy", "json-intended-row");

    assertThat(run.exitCode()).as(run.err()).isZero();
    List<ConsumerRecord<byte[], byte[]>> main = stack.kafka.records(TOPIC, stack.partitionOf(42));
    assertThat(main).hasSize(1);
    assertThat(main.get(0).key()).isEqualTo(stack.key(42));
    assertThat(new String(stack.kafka.records(LEDGER).get(0).key(), StandardCharsets.UTF_8))
        .isEqualTo("file:test.shop.orders:1:17");
    assertThat(LedgerEntry.fromJson(stack.kafka.records(LEDGER).get(0).value()).dlq()).isNull();
    assertThat(again.out()).contains("already repaired at");
    assertThat(stack.kafka.records(TOPIC, stack.partitionOf(42))).hasSize(1);
  }

  @Test
  void anExportedEnvelopeNeedsNoDlqTopic_itsOriginalTopicNamesTheDlqAndLedger(@TempDir Path dir)
      throws Exception {
    Path file = envelopeFile(dir, TestSchemas.resource(EXPORTED));
    int partition = stack.partitionOf(42);

    Run dryRun =
        stack.dlqWithoutTopic(
            "repair",
            "--from-file",
            file.toString(),
            "--strategy",
            "json-intended-row",
            "--dry-run");

    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out())
        .contains(
            "envelope file "
                + file
                + ": original "
                + TOPIC
                + "-1@17; DLQ topic "
                + DLQ
                + ", ledger "
                + LEDGER)
        .contains(
            "dry run: would repair envelope from file (original "
                + TOPIC
                + "-1@17) -> topic "
                + TOPIC
                + ", partition "
                + partition
                + " (the key's partition), key {order_id=42}, value schema id "
                + stack.valueSchemaId)
        .contains("op c")
        .contains(
            "repair (dry run): 1 would be repaired, 0 already done, 0 refused, 0 failed of 1"
                + " input(s)");
    assertThat(stack.kafka.producers()).as("a dry run writes nothing").isEmpty();

    Run run =
        stack.dlqWithoutTopic(
            "repair", "--from-file", file.toString(), "--strategy", "json-intended-row");

    assertThat(run.exitCode()).as(run.err()).isZero();
    GenericRecord after =
        (GenericRecord)
            ((GenericRecord)
                    AvroWire.decode(
                        stack.kafka.records(TOPIC, partition).get(0).value(),
                        TestSchemas.ordersEnvelope()))
                .get("after");
    assertThat(after.get("order_id")).isEqualTo(42L);
    assertThat(after.get("customer").toString()).isEqualTo("ada");
    assertThat(stack.kafka.records(LEDGER)).hasSize(1);
    assertThat(new String(stack.kafka.records(LEDGER).get(0).key(), StandardCharsets.UTF_8))
        .isEqualTo("file:" + TOPIC + ":1:17");
  }

  @Test
  void aRepairByIdAndOneFromTheExportedEnvelopeOfTheSameInputShareTheLedger(@TempDir Path dir)
      throws Exception {
    long dlqOffset = stack.poison(42, OrdersStack.intended(42, "c"));
    Path file =
        envelopeFile(
            dir, new String(stack.kafka.records(DLQ).get(0).value(), StandardCharsets.UTF_8));

    Run byId = stack.dlq("repair", String.valueOf(dlqOffset), "--strategy", "json-intended-row");
    Run fromFile =
        stack.dlqWithoutTopic(
            "repair", "--from-file", file.toString(), "--strategy", "json-intended-row");

    assertThat(byId.exitCode()).as(byId.err()).isZero();
    assertThat(fromFile.exitCode()).as(fromFile.err()).isZero();
    assertThat(fromFile.out())
        .contains("already repaired at")
        .contains("0 repaired, 1 already done");
    assertThat(stack.kafka.records(TOPIC, stack.partitionOf(42)))
        .as("poison + one repair")
        .hasSize(2);
    assertThat(stack.kafka.records(LEDGER)).hasSize(1);
  }

  @Test
  void anExportedEnvelopeTakesTheDlqSuffixOfTheRouter(@TempDir Path dir) throws Exception {
    Path file = envelopeFile(dir, TestSchemas.resource(EXPORTED));

    Run run =
        stack.dlqWithoutTopic(
            "repair",
            "--from-file",
            file.toString(),
            "--strategy",
            "json-intended-row",
            "--dlq-suffix",
            ".quarantine");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(stack.kafka.records(TOPIC + ".quarantine.repairs")).hasSize(1);
    assertThat(stack.kafka.hasTopic(LEDGER)).isFalse();
  }

  @Test
  void anEnvelopeTheSinkQuarantinedFromACleanTopicUsesItsInputsDlqAndLedger(@TempDir Path dir)
      throws Exception {
    // The upsert sink reads the clean topic and quarantines to the input's DLQ topic.
    stack.registry.register(Subjects.key(CLEAN), TestSchemas.ordersKey());
    stack.registry.register(Subjects.value(CLEAN), TestSchemas.ordersEnvelope());
    Path file =
        envelopeFile(
            dir,
            TestSchemas.resource(EXPORTED)
                .replace(
                    "\"original_topic\": \"" + TOPIC + "\"",
                    "\"original_topic\": \"" + CLEAN + "\""));

    Run run =
        stack.dlqWithoutTopic(
            "repair", "--from-file", file.toString(), "--strategy", "json-intended-row");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("; DLQ topic " + DLQ + ", ledger " + LEDGER);
    assertThat(stack.kafka.records(CLEAN, stack.partitionOf(42))).hasSize(1);
    assertThat(stack.kafka.records(LEDGER)).hasSize(1);
  }

  @Test
  void aDlqTopicGivenForAnExportedEnvelopeWinsOverItsOriginalTopic(@TempDir Path dir)
      throws Exception {
    Path file = envelopeFile(dir, TestSchemas.resource(EXPORTED));

    Run run =
        stack.dlqWithoutTopic(
            "repair",
            "--from-file",
            file.toString(),
            "--strategy",
            "json-intended-row",
            "--dlq-topic",
            "ops.exported.dlq");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("; DLQ topic ops.exported.dlq, ledger ops.exported.dlq.repairs");
    assertThat(stack.kafka.records("ops.exported.dlq.repairs")).hasSize(1);
    assertThat(stack.kafka.hasTopic(LEDGER)).isFalse();
    assertThat(stack.kafka.records(TOPIC, stack.partitionOf(42))).hasSize(1);
  }

  @Test
  void anExportedEnvelopeWithoutOriginalTopicFailsNamingTheFieldToAdd(@TempDir Path dir)
      throws Exception {
    String exported = TestSchemas.resource(EXPORTED);
    String original = "\"original_topic\": \"" + TOPIC + "\",";
    assertThat(exported).contains(original);

    for (String replacement :
        List.of("", "\"original_topic\": null,", "\"original_topic\": \" \",")) {
      Path file = envelopeFile(dir, exported.replace(original, replacement));
      Run run =
          stack.dlqWithoutTopic(
              "repair", "--from-file", file.toString(), "--strategy", "json-intended-row");

      assertThat(run.exitCode()).as(replacement).isEqualTo(1);
      assertThat(run.err())
          .as(replacement)
          .contains("envelope file " + file.toAbsolutePath() + " has no original_topic")
          .contains(
              "add \"original_topic\": \"<prefix>.<db>.<table>\", the topic the record was read"
                  + " from, to the file");
    }
    assertThat(stack.kafka.producers()).as("nothing written").isEmpty();
  }

  private static Path envelopeFile(Path dir, String json) throws Exception {
    Path file = Files.createTempFile(dir, "envelope", ".json");
    Files.writeString(file, json);
    return file;
  }

  @Test
  void anUnknownStrategyIsAUsageError() {
    Run run = stack.dlq("repair", "0", "--strategy", "guess");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("unknown --strategy 'guess'; known: json-intended-row");
  }

  @Test
  void idAndAllAreExclusive() {
    Run neither = stack.dlq("repair", "--strategy", "json-intended-row");
    Run both = stack.dlq("repair", "0", "--all", "--strategy", "json-intended-row");

    assertThat(neither.exitCode()).isEqualTo(2);
    assertThat(neither.err()).contains("give either <id> or --all");
    assertThat(both.exitCode()).isEqualTo(2);
  }

  private long findKeyInSamePartition(long orderId) {
    int partition = stack.partitionOf(orderId);
    for (long candidate = orderId + 1; ; candidate++) {
      if (stack.partitionOf(candidate) == partition) {
        return candidate;
      }
    }
  }
}
