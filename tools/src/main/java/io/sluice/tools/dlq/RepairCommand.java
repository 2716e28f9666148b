package io.sluice.tools.dlq;

import io.sluice.contract.TopicNames;
import io.sluice.tools.dlq.handle.KeyDecoder;
import io.sluice.tools.dlq.handle.Planner;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqEntry;
import io.sluice.tools.dlq.repair.DebeziumEnvelopeBuilder;
import io.sluice.tools.dlq.repair.IntendedRowPlanner;
import io.sluice.tools.dlq.repair.ReencodePlanner;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code sluice dlq repair}: rebuild a quarantined record with a strategy and produce it. */
@Command(
    name = "repair",
    mixinStandardHelpOptions = true,
    description = {
      "Repairs DLQ records with a strategy. json-intended-row decodes the payload ({\"intended_after\":"
          + " {...}, \"intended_operation\": \"c|u|d\"} or a bare JSON row), builds the Debezium"
          + " event with the latest <topic>-value schema, the key with the latest <topic>-key"
          + " schema, and produces it keyed, so it lands in the key's partition.",
      "avro-reencode decodes an Avro value with its own schema and encodes the same event with"
          + " --target-version of <topic>-value (default the latest), field by field (text holding"
          + " a number becomes the number and back; a field the record lacks takes its default),"
          + " e.g. after a retyped column was reverted; the key, headers and partition stay.",
      "Acts once per quarantined input, through its first DLQ record: a later copy of it (a zombie"
          + " sink task quarantined the input again) is skipped, saying so. Skips inputs the ledger"
          + " has (for any of their DLQ records); refuses (unless --force) when a newer event for"
          + " the same key follows the poison record. Exit code: 0 done, 1 a record failed,"
          + " 3 refused."
    })
final class RepairCommand extends HandleCommand {

  @Option(
      names = "--strategy",
      required = true,
      paramLabel = "NAME",
      description =
          "Repair strategy; one of: "
              + IntendedRowPlanner.STRATEGY
              + ", "
              + ReencodePlanner.STRATEGY
              + ".")
  String strategy;

  @Option(
      names = "--target-version",
      paramLabel = "N",
      description =
          "With "
              + ReencodePlanner.STRATEGY
              + ": the version of <topic>-value to encode with (default: the latest).")
  Integer targetVersion;

  @Option(
      names = "--from-file",
      paramLabel = "FILE",
      description =
          "Repair the DLQ envelope v1 JSON in FILE (exported elsewhere) instead of a DLQ record."
              + " Its original_topic names the DLQ topic and ledger (<original_topic><dlq suffix>;"
              + " the input's for a clean topic) unless --dlq-topic or --table is given.")
  Path fromFile;

  /** The envelope of {@link #fromFile}, read by {@link #validate}; null without the option. */
  private EnvelopeFile envelope;

  @Override
  LedgerEntry.Action action() {
    return LedgerEntry.Action.REPAIR;
  }

  @Override
  boolean registryRequired() {
    return true;
  }

  @Override
  void validate() {
    if (!IntendedRowPlanner.STRATEGY.equals(strategy)
        && !ReencodePlanner.STRATEGY.equals(strategy)) {
      throw new ParameterException(
          spec.commandLine(),
          "unknown --strategy '"
              + strategy
              + "'; known: "
              + IntendedRowPlanner.STRATEGY
              + ", "
              + ReencodePlanner.STRATEGY);
    }
    if (targetVersion != null && !ReencodePlanner.STRATEGY.equals(strategy)) {
      throw new ParameterException(
          spec.commandLine(), "--target-version applies to --strategy " + ReencodePlanner.STRATEGY);
    }
    if (targetVersion != null && targetVersion < 1) {
      throw new ParameterException(
          spec.commandLine(), "--target-version must be 1 or more, got " + targetVersion);
    }
    envelope = null; // picocli reuses this object for the next run of the same CommandLine
    if (fromFile == null) {
      super.validate();
      return;
    }
    if (id != null || all || partition != null) {
      throw new ParameterException(
          spec.commandLine(), "--from-file takes no <id>, --all or --partition");
    }
    envelope = EnvelopeFile.read(fromFile);
  }

  @Override
  String impliedDlqTopic(TopicNames names) {
    return envelope == null ? super.impliedDlqTopic(names) : envelope.dlqTopic(names);
  }

  @Override
  Planner planner(ToolSession session) {
    if (ReencodePlanner.STRATEGY.equals(strategy)) {
      return new ReencodePlanner(
          session.registry(),
          new KeyDecoder(session.registry()),
          session::partitionCount,
          targetVersion);
    }
    return new IntendedRowPlanner(
        session.registry(), new DebeziumEnvelopeBuilder(session.clock()), session::partitionCount);
  }

  @Override
  List<DlqEntry> dlqEntries(ToolSession session) {
    return envelope == null ? super.dlqEntries(session) : List.of();
  }

  @Override
  List<DlqEntry> selected(ToolSession session, List<DlqEntry> dlq) {
    if (envelope == null) {
      return super.selected(session, dlq);
    }
    spec.commandLine()
        .getOut()
        .println(
            "envelope file "
                + fromFile
                + ": original "
                + envelope.entry().original()
                + "; DLQ topic "
                + session.dlqTopic()
                + ", ledger "
                + session.ledgerTopic());
    return List.of(envelope.entry());
  }
}
