package io.sluice.tools.dlq;

import io.sluice.tools.dlq.handle.KeyDecoder;
import io.sluice.tools.dlq.handle.Outcome;
import io.sluice.tools.dlq.handle.Planner;
import io.sluice.tools.dlq.handle.Reprocessor;
import io.sluice.tools.dlq.handle.StaleWriteGuard;
import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqEntry;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * What {@code replay} and {@code repair} share: selecting records, the ledger, the transactional
 * producer, the guard, progress and the exit code. Subclasses say how a record is planned.
 */
abstract class HandleCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(HandleCommand.class);
  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);

  @Spec CommandSpec spec;
  @ParentCommand DlqCommand parent;
  @Mixin EndpointOptions endpoints;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "<id>",
      converter = DlqRecordId.Converter.class,
      description = "The DLQ record: " + DlqRecordId.FORMS + " (as `list` prints it), or --all.")
  DlqRecordId id;

  @Option(names = "--all", description = "Every record of the DLQ topic (or of --partition).")
  boolean all;

  @Option(
      names = "--partition",
      paramLabel = "P",
      description =
          "DLQ partition: of a bare <offset> when it is in several, or the only one with --all.")
  Integer partition;

  @Option(names = "--dry-run", description = "Print what would be produced; write nothing.")
  boolean dryRun;

  @Option(
      names = "--force",
      description =
          "Write even when a newer event for the same key follows the poison record"
              + " (the stale-write guard refuses otherwise).")
  boolean force;

  abstract LedgerEntry.Action action();

  abstract boolean registryRequired();

  abstract Planner planner(ToolSession session);

  /** Checks the options before anything is read. */
  void validate() {
    if (all == (id != null)) {
      throw new ParameterException(spec.commandLine(), "give either <id> or --all");
    }
  }

  /** The records to handle (from the DLQ by default). */
  List<DlqEntry> selected(ToolSession session, List<DlqEntry> dlq) {
    String topic = session.endpoints().dlqTopic();
    return all
        ? DlqSelection.all(dlq, partition)
        : List.of(DlqSelection.one(dlq, id, partition, topic));
  }

  /** The DLQ's records (the guard ignores their originals); subclasses may not read the DLQ. */
  List<DlqEntry> dlqEntries(ToolSession session) {
    return session.dlqEntries();
  }

  @Override
  public Integer call() {
    validate();
    Endpoints resolved = endpoints.resolve(registryRequired());
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (ToolSession session = ToolSession.open(parent.context(), resolved)) {
      List<DlqEntry> dlq = dlqEntries(session);
      List<DlqEntry> selected = selected(session, dlq);
      Producer<byte[], byte[]> producer = dryRun ? null : producer(session);
      try {
        // Read the ledger only after initTransactions: a run that committed before is visible,
        // a run that starts later fences this one before it can write twice.
        Ledger ledger = session.readLedger();
        KeyDecoder keys = new KeyDecoder(session.registry());
        Reprocessor reprocessor =
            new Reprocessor(
                action(),
                planner(session),
                new StaleWriteGuard(session.scanner(), keys),
                ledger,
                producer,
                new HashSet<Coordinates>(ToolSession.originals(dlq)),
                new Reprocessor.Options(dryRun, force),
                session.clock(),
                out,
                err);
        return run(reprocessor, selected, out, err);
      } finally {
        if (producer != null) {
          producer.close(Duration.ofSeconds(10));
        }
      }
    }
  }

  private int run(
      Reprocessor reprocessor, List<DlqEntry> selected, PrintWriter out, PrintWriter err) {
    Map<Outcome, Integer> tally = new EnumMap<>(Outcome.class);
    log.info(
        "{} of {} DLQ record(s) started (dry run: {}, force: {})",
        action().label(),
        selected.size(),
        dryRun,
        force);
    long lastProgress = System.nanoTime();
    for (int i = 0; i < selected.size(); i++) {
      tally.merge(reprocessor.handle(selected.get(i)), 1, Integer::sum);
      out.flush();
      if (System.nanoTime() - lastProgress > PROGRESS_EVERY.toNanos()) {
        err.println(
            action().label()
                + ": "
                + (i + 1)
                + "/"
                + selected.size()
                + " records, "
                + summary(tally));
        err.flush();
        lastProgress = System.nanoTime();
      }
    }
    out.println(
        action().label()
            + (dryRun ? " (dry run)" : "")
            + ": "
            + summary(tally)
            + " of "
            + selected.size()
            + " record(s)");
    out.flush();
    err.flush();
    log.info("{} finished: {}", action().label(), summary(tally));
    if (tally.getOrDefault(Outcome.FAILED, 0) > 0) {
      return DlqCommand.EXIT_FAILED;
    }
    return tally.getOrDefault(Outcome.REFUSED_STALE, 0) > 0 ? DlqCommand.EXIT_REFUSED : 0;
  }

  private String summary(Map<Outcome, Integer> tally) {
    String done = dryRun ? "would be " + action().pastTense() : action().pastTense();
    return tally.getOrDefault(dryRun ? Outcome.WOULD_PRODUCE : Outcome.PRODUCED, 0)
        + " "
        + done
        + ", "
        + tally.getOrDefault(Outcome.ALREADY_HANDLED, 0)
        + " already done, "
        + tally.getOrDefault(Outcome.REFUSED_STALE, 0)
        + " refused, "
        + tally.getOrDefault(Outcome.FAILED, 0)
        + " failed";
  }

  private Producer<byte[], byte[]> producer(ToolSession session) {
    session.kafka().ensureCompactedTopic(session.ledgerTopic());
    Producer<byte[], byte[]> producer =
        session.kafka().transactionalProducer(transactionalId(session.endpoints().dlqTopic()));
    try {
      producer.initTransactions();
    } catch (RuntimeException e) {
      producer.close(Duration.ZERO);
      throw e;
    }
    return producer;
  }

  /** One transactional id per DLQ: two runs on the same DLQ fence each other. */
  static String transactionalId(String dlqTopic) {
    return "sluice-dlq-tools." + dlqTopic;
  }
}
