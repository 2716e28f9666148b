package io.sluice.tools.dlq;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sluice dlq}: the operator's dead-letter toolkit. Works against any stack whose Kafka and
 * schema registry it can reach: list, show, replay and repair records of the router's DLQ, with an
 * idempotent ledger ({@code <dlq>.repairs}) and a stale-write guard.
 */
@Command(
    name = "dlq",
    mixinStandardHelpOptions = true,
    description = {
      "Dead-letter toolkit: list, show, replay and repair records of the router's DLQ topic, by"
          + " the input they quarantined: each input is listed, counted, replayed and repaired"
          + " once, also when a zombie sink task wrote a second DLQ record of it.",
      "Replays and repairs are recorded in the ledger topic <dlq>.repairs, so a second run skips"
          + " what was done; each record and its ledger entry are written in one transaction.",
      "The DLQ topic comes from --dlq-topic, or --table DB.TABLE (the router's DLQ topic of"
          + " that table or input topic), or an id naming it, or (repair --from-file) the"
          + " envelope's original_topic; without one, `list` lists the DLQ"
          + " topics there are and the others fail naming them. DLQ topics end with the router's"
          + " DLQ suffix: --dlq-suffix, else the ready file's topics.dlq_suffix, else .dlq.",
      "Endpoints come from --bootstrap-server/--schema-registry-url or the ready file of `sluice"
          + " up`."
    },
    subcommands = {ListCommand.class, ShowCommand.class, ReplayCommand.class, RepairCommand.class})
public final class DlqCommand implements Runnable {
  /** Exit code when a record could not be replayed or repaired. */
  public static final int EXIT_FAILED = 1;

  /** Exit code when the stale-write guard refused a record (and nothing failed). */
  public static final int EXIT_REFUSED = 3;

  private final ToolContext context;

  @Spec CommandSpec spec;

  /** The command against the real cluster and registry. */
  public DlqCommand() {
    this(ToolContext.DEFAULT);
  }

  /** The command with its clients from {@code context} (unit tests). */
  public DlqCommand(ToolContext context) {
    this.context = context;
  }

  ToolContext context() {
    return context;
  }

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(), "Missing command: one of list, show, replay, repair");
  }
}
