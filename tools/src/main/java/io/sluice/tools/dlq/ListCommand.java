package io.sluice.tools.dlq;

import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqEntry;
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

/** {@code sluice dlq list}: one line per DLQ record. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "Lists the records of the DLQ topic (read_committed): the record's id <partition>@<offset>"
          + " (what show, replay and repair take), original"
          + " topic/partition/offset, error code, age since quarantine, and whether the ledger"
          + " says it was replayed or repaired."
    })
final class ListCommand implements Callable<Integer> {
  private static final String[] HEADER = {
    "DLQ", "ORIGINAL", "STAGE", "ERROR_CODE", "AGE", "STATUS"
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
      Ledger ledger = session.readLedger();
      List<String[]> rows = new ArrayList<>();
      rows.add(HEADER);
      for (DlqEntry entry : entries) {
        rows.add(row(entry, ledger, session));
      }
      print(out, rows);
      out.printf("%d record(s) in %s%n", entries.size(), resolved.dlqTopic());
      out.flush();
    }
    return 0;
  }

  private static String[] row(DlqEntry entry, Ledger ledger, ToolSession session) {
    String at = DlqRecordId.of(entry.dlq());
    if (!entry.readable()) {
      return new String[] {at, "-", "-", "-", "-", "UNREADABLE: " + entry.problem()};
    }
    String code = entry.envelope().errorCode() == null ? "-" : entry.envelope().errorCode();
    Duration age = Duration.between(entry.envelope().quarantinedAt(), session.clock().instant());
    Optional<LedgerEntry> done = ledger.find(entry);
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
      at, entry.original().toString(), entry.stage(), code, Display.age(age), status
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
