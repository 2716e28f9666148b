package io.sluice.tools.dlq;

import io.sluice.tools.dlq.handle.KeyDecoder;
import io.sluice.tools.dlq.handle.Planner;
import io.sluice.tools.dlq.handle.ReplayPlanner;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import picocli.CommandLine.Command;

/** {@code sluice dlq replay}: the original bytes back to the original topic and partition. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
      "Re-produces the original key, value and headers of DLQ records, unchanged, to their"
          + " original topic and partition: for poison whose cause was fixed (e.g. a schema"
          + " registered since).",
      "Acts once per quarantined input, through its first DLQ record: a later copy of it (a zombie"
          + " sink task quarantined the input again) is skipped, saying so. Skips inputs the ledger"
          + " has (for any of their DLQ records); refuses (unless --force) when a newer event for"
          + " the same key follows the poison record. Exit code: 0 done, 1 a record failed,"
          + " 3 refused."
    })
final class ReplayCommand extends HandleCommand {

  @Override
  LedgerEntry.Action action() {
    return LedgerEntry.Action.REPLAY;
  }

  @Override
  boolean registryRequired() {
    return false;
  }

  @Override
  Planner planner(ToolSession session) {
    return new ReplayPlanner(new KeyDecoder(session.registry()), session::partitionCount);
  }
}
