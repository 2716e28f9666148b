package io.sluice.tools.dlq;

import static io.sluice.tools.dlq.testing.OrdersStack.DLQ;
import static io.sluice.tools.dlq.testing.OrdersStack.LEDGER;
import static io.sluice.tools.dlq.testing.OrdersStack.TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dlq.DlqHeaders;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.testing.OrdersStack;
import io.sluice.tools.dlq.testing.OrdersStack.Run;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** list, show, replay and the shared options, over MockConsumer/MockProducer. */
class DlqCommandTest {
  private final OrdersStack stack = new OrdersStack();

  @Test
  void listShowsEachRecordWithItsOriginErrorAgeAndLedgerStatus() {
    long repaired = stack.poison(42, OrdersStack.intended(42, "c"));
    long open = stack.poison(43, "{\"order_id\": 43}");
    stack.dlq(
        "repair",
        String.valueOf(repaired),
        "--partition",
        String.valueOf(stack.partitionOf(42)),
        "--strategy",
        "json-intended-row");

    Run run = stack.dlq("list");

    assertThat(run.exitCode()).as(run.err()).isZero();
    String[] lines = run.out().split("\n");
    assertThat(lines[0]).startsWith("DLQ").contains("ORIGINAL", "ERROR_CODE", "AGE", "STATUS");
    assertThat(run.out())
        .containsPattern(
            stack.partitionOf(42)
                + "@"
                + repaired
                + " +"
                + TOPIC
                + "-"
                + stack.partitionOf(42)
                + "@\\d+ +router +NOT_AVRO_WIRE_FORMAT +1m30s +1 +repaired "
                + OrdersStack.NOW
                + " -> ")
        .containsPattern(
            stack.partitionOf(43)
                + "@"
                + open
                + " +"
                + TOPIC
                + "-"
                + stack.partitionOf(43)
                + "@\\d+ +router +NOT_AVRO_WIRE_FORMAT +1m30s +1 +-\n")
        .contains("2 input(s) in " + DLQ + " (2 DLQ record(s))");
  }

  @Test
  void listMarksUnreadableRecords() {
    stack.kafka.append(DLQ, 0, null, "not an envelope".getBytes(StandardCharsets.UTF_8), null);

    Run run = stack.dlq("list");

    assertThat(run.out()).contains("0@0").contains("UNREADABLE: not a DLQ envelope v1");
  }

  @Test
  void showPrintsTheEnvelopeHeadersDecodedKeyAndTextPayload() {
    long offset = stack.poison(42, OrdersStack.intended(42, "c"));

    Run run = stack.dlq("show", String.valueOf(offset));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("error_code       NOT_AVRO_WIRE_FORMAT")
        .contains("format           envelope")
        .contains("quarantined_at   2026-03-01T11:58:30Z (1m30s ago)")
        .contains("  __streams.errors.topic = \"" + TOPIC + "\"")
        .contains("  sluice.error.code = \"NOT_AVRO_WIRE_FORMAT\"")
        .contains("original headers:\n  trace = \"t-1\"")
        .contains("key              {\"order_id\": 42} (Avro, schema id " + stack.keySchemaId + ")")
        .contains("ledger           not replayed or repaired")
        .contains("payload (UTF-8 text, ")
        .contains(OrdersStack.intended(42, "c"));
  }

  @Test
  void showPrintsABinaryPayloadAsHex() {
    long offset = stack.poison(42, "\u0000\u0001binary");

    Run run = stack.dlq("show", String.valueOf(offset));

    assertThat(run.out())
        .contains("payload (binary, 8 bytes, hex):")
        .contains("00000000  00 01 62 69 6e 61 72 79");
  }

  @Test
  void anOffsetInSeveralPartitionsNeedsThePartition() {
    stack.poison(42, "{}");
    long other = otherPartitionKey(42);
    stack.poison(other, "{}");

    Run run = stack.dlq("show", "0");
    Run picked = stack.dlq("show", "0", "--partition", String.valueOf(stack.partitionOf(other)));

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("offset 0 is in several partitions of " + DLQ)
        .contains("pass --partition or <partition>@0");
    assertThat(picked.exitCode()).as(picked.err()).isZero();
  }

  @Test
  void everyIdListPrintsIsAcceptedBackByShowReplayAndRepair() {
    stack.poison(42, OrdersStack.intended(42, "c"));
    long other = otherPartitionKey(42);
    stack.poison(other, OrdersStack.intended(other, "c"));
    stack.poison(other, OrdersStack.intended(other, "u"));
    int unused = 0 + 1 + 2 - stack.partitionOf(42) - stack.partitionOf(other);
    stack.kafka.append(DLQ, unused, null, "not an envelope".getBytes(StandardCharsets.UTF_8), null);
    String unreadable = unused + "@0";

    List<String> ids = listedIds(stack.dlq("list"));

    // offset 0 is in every partition, so only the partition-qualified id can name each record
    assertThat(ids)
        .containsExactlyInAnyOrder(
            stack.partitionOf(42) + "@0",
            stack.partitionOf(other) + "@0",
            stack.partitionOf(other) + "@1",
            unreadable);
    for (String id : ids) {
      Run show = stack.dlq("show", id);
      assertThat(show.err()).doesNotContain("is not a DLQ record id");
      assertThat(show.out()).as(id).contains("dlq_record       " + DLQ + "-" + id + " ");
      String printed = show.out().lines().findFirst().orElseThrow().split(" +")[1];
      if (id.equals(unreadable)) {
        assertThat(show.exitCode()).as("unreadable record " + id).isEqualTo(1);
        continue;
      }
      assertThat(show.exitCode()).as(id + ": " + show.err()).isZero();
      Run replay = stack.dlq("replay", id, "--dry-run");
      Run repair = stack.dlq("repair", printed, "--dry-run", "--strategy", "json-intended-row");
      Run showAgain = stack.dlq("show", printed);
      assertThat(replay.exitCode()).as(id + ": " + replay.err()).isZero();
      assertThat(replay.out()).contains("dry run: would replay DLQ record " + DLQ + "-" + id);
      assertThat(repair.exitCode()).as(printed + ": " + repair.err()).isZero();
      assertThat(repair.out()).contains("dry run: would repair DLQ record " + printed);
      assertThat(showAgain.out()).isEqualTo(show.out());
    }
  }

  @Test
  void aBadIdIsAUsageErrorNamingItAndTheAcceptedForms() {
    stack.poison(42, "{}");

    Run run = stack.dlq("show", "0-0");
    Run replay = stack.dlq("replay", "x@1", "--dry-run");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains(
            "'0-0' is not a DLQ record id; give <offset>, <partition>@<offset> or"
                + " <dlq-topic>-<partition>@<offset> (as `sluice dlq list` prints it: 1@42)");
    assertThat(replay.exitCode()).isEqualTo(2);
    assertThat(replay.err()).contains("'x@1' is not a DLQ record id; give <offset>");
  }

  @Test
  void anIdOfAnotherTopicOrPartitionIsRefused() {
    stack.poison(42, "{}");
    int partition = stack.partitionOf(42);
    int otherPartition = (partition + 1) % OrdersStack.PARTITIONS;

    Run topic = stack.dlq("show", "other.dlq-" + partition + "@0");
    Run conflict =
        stack.dlq("show", partition + "@0", "--partition", String.valueOf(otherPartition));
    Run missing = stack.dlq("show", otherPartition + "@0");

    assertThat(topic.exitCode()).isEqualTo(1);
    assertThat(topic.err())
        .contains(
            "DLQ record other.dlq-"
                + partition
                + "@0 is in topic other.dlq, not in the DLQ topic "
                + DLQ
                + "; pass --dlq-topic other.dlq");
    assertThat(conflict.exitCode()).isEqualTo(1);
    assertThat(conflict.err())
        .contains(
            "DLQ record "
                + partition
                + "@0 is in partition "
                + partition
                + ", but --partition is "
                + otherPartition);
    assertThat(missing.exitCode()).isEqualTo(1);
    assertThat(missing.err())
        .contains("DLQ topic " + DLQ + " has no record at offset 0 in partition " + otherPartition);
  }

  @Test
  void aMissingOffsetSaysWhereItLooked() {
    Run run = stack.dlq("show", "5");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains(
            "DLQ topic " + DLQ + " has no record at offset 5; `sluice dlq list` shows the records");
  }

  @Test
  void replayProducesTheOriginalBytesAndHeadersToTheOriginalPartition() {
    long offset = stack.poison(42, "{\"order_id\": 42}");
    int partition = stack.partitionOf(42);
    ConsumerRecord<byte[], byte[]> original = stack.kafka.records(TOPIC, partition).get(0);

    Run run = stack.dlq("replay", String.valueOf(offset));
    Run again = stack.dlq("replay", String.valueOf(offset));

    assertThat(run.exitCode()).as(run.err()).isZero();
    List<ConsumerRecord<byte[], byte[]>> main = stack.kafka.records(TOPIC, partition);
    assertThat(main).hasSize(2);
    assertThat(main.get(1).key()).isEqualTo(original.key());
    assertThat(main.get(1).value()).isEqualTo(original.value());
    assertThat(main.get(1).headers().toArray()).extracting(Header::key).containsExactly("trace");
    assertThat(stack.kafka.producers().get(0).history().get(0).partition()).isEqualTo(partition);
    LedgerEntry entry = LedgerEntry.fromJson(stack.kafka.records(LEDGER).get(0).value());
    assertThat(entry.action()).isEqualTo(LedgerEntry.Action.REPLAY);
    assertThat(entry.strategy()).isNull();
    assertThat(again.out()).contains("already replayed at");
    assertThat(stack.kafka.records(TOPIC, partition)).hasSize(2);
  }

  @Test
  void replayRefusesWhenANewerEventForTheKeyFollows() {
    long offset = stack.poison(42, "{}");
    long newer = stack.validEvent(42);

    Run run = stack.dlq("replay", String.valueOf(offset));

    assertThat(run.exitCode()).isEqualTo(DlqCommand.EXIT_REFUSED);
    assertThat(run.err())
        .contains("refusing to replay")
        .contains("follows it at " + TOPIC + "-" + stack.partitionOf(42) + "@" + newer);
  }

  @Test
  void replayOfARecordWithoutKeyIsNotRefusedByOtherRecordsWithoutKey() {
    stack.kafka.append(TOPIC, 1, null, "poison".getBytes(StandardCharsets.UTF_8), null);
    stack.kafka.append(TOPIC, 1, null, "later".getBytes(StandardCharsets.UTF_8), null);
    RecordHeaders headers = new RecordHeaders();
    headers.add(DlqHeaders.ERRORS_TOPIC, TOPIC.getBytes(StandardCharsets.UTF_8));
    headers.add(DlqHeaders.ERRORS_PARTITION, "1".getBytes(StandardCharsets.UTF_8));
    headers.add(DlqHeaders.ERRORS_OFFSET, "0".getBytes(StandardCharsets.UTF_8));
    long offset =
        stack.kafka.append(DLQ, 1, null, "poison".getBytes(StandardCharsets.UTF_8), headers);

    Run run = stack.dlq("replay", String.valueOf(offset));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(stack.kafka.records(TOPIC, 1)).hasSize(3);
    assertThat(stack.kafka.records(TOPIC, 1).get(2).value()).isEqualTo("poison".getBytes());
  }

  @Test
  void endpointsComeFromTheReadyFileWhenNoFlagsAreGiven(@TempDir Path dir) throws Exception {
    Path ready = dir.resolve("ready.json");
    Files.writeString(
        ready,
        "{\"bootstrap_servers\": \"127.0.0.1:1\", \"schema_registry_url\": \"http://127.0.0.1:2\"}");
    stack.poison(42, "{}");

    Run run =
        OrdersStack.run(
            stack.context(), "list", "--ready-file", ready.toString(), "--dlq-topic", DLQ);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("1 input(s) in " + DLQ + " (1 DLQ record(s))");
  }

  @Test
  void withoutFlagsOrReadyFileTheErrorSaysWhatToPass(@TempDir Path dir) {
    Run run =
        OrdersStack.run(
            stack.context(),
            "repair",
            "--all",
            "--strategy",
            "json-intended-row",
            "--ready-file",
            dir.resolve("none.json").toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("no --bootstrap-server given and there is no ready file at")
        .contains("pass --bootstrap-server, or start the stack with `scripts/sluice up`");
  }

  @Test
  void aMissingDlqTopicIsNamed() {
    Run run =
        OrdersStack.run(
            stack.context(), "list", "--bootstrap-server", "x:1", "--dlq-topic", "nope.dlq");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains(
            "DLQ topic nope.dlq does not exist; pass the router's DLQ topic with --dlq-topic");
  }

  @Test
  void listWithoutATopicListsTheDlqTopicsWithTheirCounts() {
    stack.kafka.createTopic("test.shop.customers.dlq", 1);
    long repaired = stack.poison(42, OrdersStack.intended(42, "c"));
    stack.poison(43, "{}");
    stack.dlq(
        "repair",
        String.valueOf(repaired),
        "--partition",
        String.valueOf(stack.partitionOf(42)),
        "--strategy",
        "json-intended-row");

    Run run = stack.dlqWithoutTopic("list");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().lines().toList())
        .containsExactly(
            "DLQ_TOPIC                INPUT_TOPIC          RECORDS  INPUTS  UNHANDLED",
            "test.shop.customers.dlq  test.shop.customers  0        0       0",
            "test.shop.orders.dlq     test.shop.orders     2        2       1",
            "2 DLQ topic(s) (suffix .dlq) on in-memory:9092; list the inputs of one with"
                + " --dlq-topic TOPIC or --table DB.TABLE");
  }

  @Test
  void tableResolvesTheDlqTopicByTheSuffix() {
    stack.poison(42, "{}");
    stack.kafka.createTopic("other.shop.items.dlq", 1);

    for (String table : List.of("shop.orders", TOPIC, TOPIC + ".clean")) {
      Run run = stack.dlqWithoutTopic("list", "--table", table);
      assertThat(run.exitCode()).as(table + ": " + run.err()).isZero();
      assertThat(run.out()).as(table).contains("1 input(s) in " + DLQ + " (1 DLQ record(s))");
    }
  }

  @Test
  void aTableWithNoOrSeveralDlqTopicsIsAUsageErrorNamingThem() {
    stack.kafka.createTopic("prod.shop.orders.dlq", 1);

    Run several = stack.dlqWithoutTopic("list", "--table", "shop.orders");
    assertThat(several.exitCode()).isEqualTo(2);
    assertThat(several.err())
        .contains(
            "--table shop.orders matches 2 DLQ topics: prod.shop.orders.dlq,"
                + " test.shop.orders.dlq; pass --dlq-topic with one of them, or its input topic"
                + " as --table");

    Run none = stack.dlqWithoutTopic("list", "--table", "shop.payments");
    assertThat(none.exitCode()).isEqualTo(2);
    assertThat(none.err())
        .contains(
            "no DLQ topic of --table shop.payments: no topic shop.payments.dlq nor any"
                + " <prefix>.shop.payments.dlq (DLQ topics: prod.shop.orders.dlq,"
                + " test.shop.orders.dlq)");

    Run both = stack.dlqWithoutTopic("list", "--table", "shop.orders", "--dlq-topic", DLQ);
    assertThat(both.exitCode()).isEqualTo(2);
    assertThat(both.err()).contains("--dlq-topic and --table both choose the DLQ topic: give one");
  }

  @Test
  void commandsOnRecordsWithoutATopicNameTheDlqTopicsAndHowToChoose() {
    long offset = stack.poison(42, "{}");

    for (String[] args :
        List.of(
            new String[] {"replay", "--all", "--dry-run"},
            new String[] {"repair", "--all", "--strategy", "json-intended-row", "--dry-run"},
            new String[] {"show", String.valueOf(offset)})) {
      Run run = stack.dlqWithoutTopic(args);
      assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(2);
      assertThat(run.err())
          .contains(
              "dlq "
                  + args[0]
                  + " acts on one DLQ topic: pass --dlq-topic TOPIC, or --table DB.TABLE for the"
                  + " router's DLQ topic of a table; DLQ topics (suffix .dlq) on in-memory:9092: "
                  + DLQ
                  + " (another suffix: --dlq-suffix)");
    }
    assertThat(stack.kafka.producers()).as("nothing written").isEmpty();
  }

  @Test
  void anIdNamingItsTopicNeedsNoFlag() {
    long offset = stack.poison(42, "{}");
    String id = DLQ + "-" + stack.partitionOf(42) + "@" + offset;

    Run show = stack.dlqWithoutTopic("show", id);
    Run replay = stack.dlqWithoutTopic("replay", id, "--dry-run");

    assertThat(show.exitCode()).as(show.err()).isZero();
    assertThat(show.out()).contains("dlq_record").contains(id);
    assertThat(replay.exitCode()).as(replay.err()).isZero();
    assertThat(replay.out()).contains("would be replayed");
  }

  @Test
  void theDlqSuffixOfTheReadyFileFindsTheDlqTopicsAndTheirLedgers(@TempDir Path dir)
      throws Exception {
    stack.kafka.createTopic(TOPIC + ".quarantine", OrdersStack.PARTITIONS);
    stack.kafka.append(TOPIC + ".quarantine", 0, null, "not an envelope".getBytes(), null);
    Path ready = dir.resolve("ready.json");
    Files.writeString(
        ready,
        "{\"bootstrap_servers\": \"127.0.0.1:1\", \"topics\": {\"dlq_suffix\": \".quarantine\"}}");

    Run list = OrdersStack.run(stack.context(), "list", "--ready-file", ready.toString());
    Run table =
        OrdersStack.run(
            stack.context(), "list", "--ready-file", ready.toString(), "--table", "shop.orders");
    Run flag =
        OrdersStack.run(
            stack.context(), "list", "--ready-file", ready.toString(), "--dlq-suffix", ".dlq");

    assertThat(list.exitCode()).as(list.err()).isZero();
    assertThat(list.out())
        .contains("test.shop.orders.quarantine  test.shop.orders  1        1       1")
        .contains("1 DLQ topic(s) (suffix .quarantine)")
        .doesNotContain(DLQ + " ");
    assertThat(table.exitCode()).as(table.err()).isZero();
    assertThat(table.out()).contains("1 input(s) in test.shop.orders.quarantine");
    assertThat(flag.out()).as("the flag wins").contains("1 DLQ topic(s) (suffix .dlq)");
  }

  /** The ids in the first column of {@code list}'s output, between its header and summary. */
  private static List<String> listedIds(Run list) {
    assertThat(list.exitCode()).as(list.err()).isZero();
    List<String> lines = list.out().lines().toList();
    return lines.subList(1, lines.size() - 1).stream().map(line -> line.split(" +")[0]).toList();
  }

  private long otherPartitionKey(long orderId) {
    for (long candidate = orderId + 1; ; candidate++) {
      if (stack.partitionOf(candidate) != stack.partitionOf(orderId)) {
        return candidate;
      }
    }
  }
}
