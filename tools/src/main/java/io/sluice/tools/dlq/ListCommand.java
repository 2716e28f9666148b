package io.sluice.tools.dlq;

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

/** {@code sluice dlq list}: one line per quarantined input. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "Lists the quarantined inputs of the DLQ topic (read_committed), one line each: the id"
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

  @Spec CommandSpec spec;
  @ParentCommand DlqCommand parent;
  @Mixin EndpointOptions endpoints;

  @Override
  public Integer call() {
    Endpoints resolved = endpoints.resolve(false);
    PrintWriter out = spec.commandLine().getOut();
    try (ToolSession session = ToolSession.open(parent.context(), resolved)) {
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
          resolved.dlqTopic(),
          entries.size(),
          inputs.laterCopies() == 0
              ? ""
              : ", " + inputs.laterCopies() + " of them later copies a zombie sink task wrote");
      out.flush();
    }
    return 0;
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
