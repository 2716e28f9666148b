package io.sluice.tools.dlq;

import static io.sluice.tools.dlq.testing.OrdersStack.DLQ;
import static io.sluice.tools.dlq.testing.OrdersStack.LEDGER;
import static io.sluice.tools.dlq.testing.OrdersStack.TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dlq.Rejection;
import io.sluice.schema.Subjects;
import io.sluice.schema.wire.WireFormat;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.repair.AvroWire;
import io.sluice.tools.dlq.repair.IntendedRowPlanner;
import io.sluice.tools.dlq.testing.OrdersStack;
import io.sluice.tools.dlq.testing.OrdersStack.Run;
import io.sluice.tools.dlq.testing.TestSchemas;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice dlq repair --strategy avro-reencode}: a change event whose {@code amount_cents} was
 * retyped long to string is quarantined; the repair encodes the same event with version 1 again.
 */
class DlqReencodeRepairTest {
  private static final String LONG_FIELD = "{\"name\": \"amount_cents\", \"type\": \"long\"}";

  private final OrdersStack stack = new OrdersStack();
  private final Schema retyped =
      new Schema.Parser()
          .parse(
              TestSchemas.resource("/orders-envelope.avsc")
                  .replace(LONG_FIELD, "{\"name\": \"amount_cents\", \"type\": \"string\"}"));
  private final int retypedId = stack.registry.register(Subjects.value(TOPIC), retyped);

  @Test
  void theRetypedEventIsEncodedWithTheTargetVersionAndKeepsKeyHeadersSourceAndPartition()
      throws Exception {
    assertThat(TestSchemas.resource("/orders-envelope.avsc")).contains(LONG_FIELD);
    long dlqOffset = stack.quarantined(42, event(retyped, retypedId, "1250"), incompatible());
    int partition = stack.partitionOf(42);

    Run run =
        stack.dlq(
            "repair",
            String.valueOf(dlqOffset),
            "--strategy",
            "avro-reencode",
            "--target-version",
            "1");

    assertThat(run.exitCode()).as(run.err()).isZero();
    List<ConsumerRecord<byte[], byte[]>> main = stack.kafka.records(TOPIC, partition);
    assertThat(main).hasSize(2);
    ConsumerRecord<byte[], byte[]> repaired = main.get(1);
    assertThat(repaired.key()).isEqualTo(stack.key(42));
    assertThat(WireFormat.schemaId(repaired.value())).isEqualTo(stack.valueSchemaId);
    GenericRecord event =
        (GenericRecord) AvroWire.decode(repaired.value(), TestSchemas.ordersEnvelope());
    GenericRecord after = (GenericRecord) event.get("after");
    assertThat(after.get("amount_cents")).isEqualTo(1250L);
    assertThat(after.get("customer").toString()).isEqualTo("c42");
    assertThat(after.get("updated_at")).isEqualTo(OrdersStack.NOW.toEpochMilli());
    assertThat(event.get("op").toString()).isEqualTo("u");
    GenericRecord source = (GenericRecord) event.get("source");
    assertThat(source.get("connector").toString()).as("the event is kept").isEqualTo("mariadb");
    assertThat(source.get("pos")).isEqualTo(4L);
    assertThat(new String(repaired.headers().lastHeader("trace").value(), StandardCharsets.UTF_8))
        .isEqualTo("t-1");
    assertThat(
            new String(
                repaired.headers().lastHeader(IntendedRowPlanner.REPAIRED_FROM_HEADER).value(),
                StandardCharsets.UTF_8))
        .isEqualTo(DLQ + "-" + partition + "@" + dlqOffset);
    assertThat(stack.kafka.producers().get(0).history().get(0).partition()).isEqualTo(partition);

    List<ConsumerRecord<byte[], byte[]>> ledger = stack.kafka.records(LEDGER);
    assertThat(ledger).hasSize(1);
    assertThat(new String(ledger.get(0).key(), StandardCharsets.UTF_8))
        .as("the ledger names the DLQ record, so `dlq list` shows it handled")
        .isEqualTo(DLQ + ":" + partition + ":" + dlqOffset);
    LedgerEntry entry = LedgerEntry.fromJson(ledger.get(0).value());
    assertThat(entry.strategy()).isEqualTo("avro-reencode");
    assertThat(run.out())
        .contains("repair: 1 repaired, 0 already done, 0 refused, 0 failed of 1 input(s)");

    Run again =
        stack.dlq("repair", "--all", "--strategy", "avro-reencode", "--target-version", "1");
    assertThat(again.out()).contains("0 repaired, 1 already done");
    assertThat(stack.kafka.records(TOPIC, partition)).hasSize(2);
  }

  @Test
  void theLatestVersionIsTheDefaultAndEncodingWithTheWritersOwnIsRefused() {
    long dlqOffset = stack.quarantined(42, event(retyped, retypedId, "1250"), incompatible());

    Run run = stack.dlq("repair", String.valueOf(dlqOffset), "--strategy", "avro-reencode");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("is written with " + Subjects.value(TOPIC) + " version 2 (id " + retypedId)
        .contains("--target-version");
    assertThat(stack.kafka.records(TOPIC)).hasSize(1);
  }

  @Test
  void aValueTheTargetTypeCannotHoldFailsNamingTheFieldNotTheValue() {
    long dlqOffset =
        stack.quarantined(42, event(retyped, retypedId, "twelve-fifty"), incompatible());

    Run run =
        stack.dlq(
            "repair",
            String.valueOf(dlqOffset),
            "--strategy",
            "avro-reencode",
            "--target-version",
            "1");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("cannot convert from writer schema id " + retypedId)
        .contains("version 1")
        .contains("after.amount_cents")
        .doesNotContain("twelve-fifty");
    assertThat(stack.kafka.records(LEDGER)).isEmpty();
  }

  @Test
  void aNonAvroPayloadIsSentToTheJsonStrategyAndAnUnknownVersionNamed() {
    long json = stack.poison(7, OrdersStack.intended(7, "c"));
    Run notAvro = stack.dlq("repair", String.valueOf(json), "--strategy", "avro-reencode");
    assertThat(notAvro.err())
        .contains("not in the Confluent wire format")
        .contains("use json-intended-row");

    long dlqOffset = stack.quarantined(42, event(retyped, retypedId, "1250"), incompatible());
    Run unknown =
        stack.dlq(
            "repair",
            stack.partitionOf(42) + "@" + dlqOffset,
            "--strategy",
            "avro-reencode",
            "--target-version",
            "9");
    assertThat(unknown.err()).contains("has no version 9");

    Run misplaced =
        stack.dlq(
            "repair",
            stack.partitionOf(42) + "@" + dlqOffset,
            "--strategy",
            "json-intended-row",
            "--target-version",
            "1");
    assertThat(misplaced.exitCode()).isEqualTo(2);
    assertThat(misplaced.err()).contains("--target-version applies to --strategy avro-reencode");
  }

  private Rejection incompatible() {
    return new Rejection(
        "SCHEMA_INCOMPATIBLE",
        "io.sluice.router.validate.SchemaIncompatibleException",
        "field amount_cents is long on the clean topic but string in schema id " + retypedId,
        retypedId,
        stack.keySchemaId);
  }

  private static byte[] event(Schema envelope, int schemaId, String amount) {
    return OrdersStack.event(envelope, schemaId, 42L, amount);
  }
}
