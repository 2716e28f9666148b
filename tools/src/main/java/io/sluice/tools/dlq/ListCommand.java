package io.sluice.tools.dlq;

import io.sluice.tools.cli.TextTable;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqEntry;
import io.sluice.tools.dlq.record.DlqInputs;
import io.sluice.tools.dlq.record.QuarantinedInput;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code sluice dlq list}: one line per quarantined input of a DLQ topic; without one, one line per
 * DLQ topic.
 */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "Without --dlq-topic or --table: lists the DLQ topics on the broker (the topics ending with"
          + " the router's DLQ suffix: --dlq-suffix, else the ready file's, else .dlq), one line"
          + " each: its input topic, DLQ records, quarantined inputs, and the inputs not yet"
          + " replayed or repaired (from its ledger).",
      "With one: lists the quarantined inputs of the DLQ topic (read_committed), one line each: the id"
          + " <partition>@<offset> of its first DLQ record (what show, replay and repair take),"
          + " original topic/partition/offset, stage, error code, age since quarantine, copies"
          + " and whether the ledger says it was replayed or repaired.",
      "An input is (stage, connector of a sink, original topic, partition, offset). COPIES is"
          + " the number of DLQ records of the input: 1, or more when a zombie sink task"
          + " quarantined it again; `show` of a later copy names the first."
    })
final class ListCommand implements Callable<Integer> {
  private static final String[] HEADER = {
    "DLQ", "ORIGINAL", "STAGE", "ERROR_CODE", "AGE", "COPIES", "STATUS"
  };
  private static final List<String> TOPICS_HEADER =
      List.of("DLQ_TOPIC", "INPUT_TOPIC", "RECORDS", "INPUTS", "UNHANDLED");

  @Spec CommandSpec spec;
  @ParentCommand DlqCommand parent;
  @Mixin EndpointOptions endpoints;

  @Override
  public Integer call() {
    Endpoints resolved = endpoints.resolve(false);
    PrintWriter out = spec.commandLine().getOut();
    try (ToolSession session = ToolSession.open(parent.context(), resolved)) {
      if (session.chooseDlqTopic(null, spec.commandLine()).isEmpty()) {
        listTopics(session, out);
        return 0;
      }
      List<DlqEntry> entries = session.dlqEntries();
      DlqInputs inputs = DlqInputs.of(entries);
      Ledger ledger = session.readLedger();
      List<String[]> rows = new ArrayList<>();
      rows.add(HEADER);
      for (QuarantinedInput input : inputs.inputs()) {
        rows.add(row(input, ledger, session));
      }
      print(out, rows);
      out.printf(
          "%d input(s) in %s (%d DLQ record(s)%s)%n",
          inputs.inputs().size(),
          session.dlqTopic(),
          entries.size(),
          inputs.laterCopies() == 0
              ? ""
              : ", " + inputs.laterCopies() + " of them later copies a zombie sink task wrote");
      out.flush();
    }
    return 0;
  }

  /** One line per DLQ topic on the broker: what it holds and what is still to do. */
  private static void listTopics(ToolSession session, PrintWriter out) {
    DlqTopicChoice choice = session.endpoints().dlq();
    List<String> topics = choice.dlqTopics(session.scanner().topics().keySet());
    List<List<String>> rows = new ArrayList<>();
    for (String topic : topics) {
      List<DlqEntry> entries = session.entriesOf(topic);
      DlqInputs inputs = DlqInputs.of(entries);
      Ledger ledger = session.ledgerOf(topic);
      long unhandled = inputs.inputs().stream().filter(i -> ledger.find(i).isEmpty()).count();
      rows.add(
          List.of(
              topic,
              choice.names().inputTopic(topic).orElse("-"),
              String.valueOf(entries.size()),
              String.valueOf(inputs.inputs().size()),
              String.valueOf(unhandled)));
    }
    TextTable.print(out, TOPICS_HEADER, rows);
    out.printf(
        "%d DLQ topic(s) (suffix %s) on %s; list the inputs of one with --dlq-topic TOPIC or"
            + " --table DB.TABLE%n",
        topics.size(), choice.names().dlqSuffix(), session.endpoints().bootstrapServers());
    out.flush();
  }

  private static String[] row(QuarantinedInput input, Ledger ledger, ToolSession session) {
    DlqEntry entry = input.first();
    String at = DlqRecordId.of(entry.dlq());
    if (!entry.readable()) {
      return new String[] {at, "-", "-", "-", "-", "1", "UNREADABLE: " + entry.problem()};
    }
    String code = entry.envelope().errorCode() == null ? "-" : entry.envelope().errorCode();
    Duration age = Duration.between(entry.envelope().quarantinedAt(), session.clock().instant());
    Optional<LedgerEntry> done = ledger.find(input);
    String status =
        done.map(
                d ->
                    d.action().pastTense()
                        + " "
                        + d.handledAt()
                        + " -> "
                        + d.produced()
                        + (d.forced() ? " (forced)" : ""))
            .orElse("-");
    return new String[] {
      at,
      entry.original().toString(),
      entry.stage(),
      code,
      Display.age(age),
      String.valueOf(input.copies()),
      status
    };
  }

  private static void print(PrintWriter out, List<String[]> rows) {
    int[] widths = new int[HEADER.length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length - 1; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(i < row.length - 1 ? pad(row[i], widths[i]) + "  " : row[i]);
      }
      out.println(line);
    }
  }

  private static String pad(String s, int width) {
    return s + " ".repeat(width - s.length());
  }
}
