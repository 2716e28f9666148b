package io.sluice.tools.dlq;

import io.sluice.contract.TopicNames;
import io.sluice.tools.dlq.handle.KeyDecoder;
import io.sluice.tools.dlq.handle.Outcome;
import io.sluice.tools.dlq.handle.Planner;
import io.sluice.tools.dlq.handle.Reprocessor;
import io.sluice.tools.dlq.handle.StaleWriteGuard;
import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqEntry;
import io.sluice.tools.dlq.record.DlqInputs;
import io.sluice.tools.dlq.record.QuarantinedInput;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 *
 * <p>They act once per quarantined input ({@link DlqInputs}), through its first DLQ record: a later
 * copy (a zombie sink task quarantined the input again) is skipped with a line saying so, and an id
 * naming a later copy acts on its input's first record.
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
      description =
          "The DLQ record: "
              + DlqRecordId.FORMS
              + " (as `list` prints it), or --all. A later copy of an input acts on the input"
              + " through its first record.")
  DlqRecordId id;

  @Option(
      names = "--all",
      description =
          "Every input of the DLQ topic (or of --partition), once each: a later copy a zombie sink"
              + " task wrote of an input is skipped.")
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

  /**
   * The DLQ topic to act on when neither {@code --dlq-topic} nor {@code --table} chooses one: the
   * topic the record id names, or null.
   */
  String impliedDlqTopic(TopicNames names) {
    return id == null ? null : id.topic();
  }

  /** The records to handle (from the DLQ by default). */
  List<DlqEntry> selected(ToolSession session, List<DlqEntry> dlq) {
    String topic = session.dlqTopic();
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
      session.requireDlqTopic(impliedDlqTopic(resolved.dlq().names()), spec.commandLine());
      List<DlqEntry> dlq = dlqEntries(session);
      List<DlqEntry> selected = selected(session, dlq);
      List<Step> steps = steps(DlqInputs.of(dlq), selected, out);
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
        return run(reprocessor, steps, out, err);
      } finally {
        if (producer != null) {
          producer.close(Duration.ofSeconds(10));
        }
      }
    }
  }

  /**
   * One thing to do: handle {@code input} ({@code laterCopy} null), or skip {@code laterCopy}, a
   * later DLQ record of it.
   */
  private record Step(QuarantinedInput input, DlqEntry laterCopy) {}

  /** Each selected record's input once, and a skip for each later copy selected with --all. */
  private List<Step> steps(DlqInputs inputs, List<DlqEntry> selected, PrintWriter out) {
    Set<QuarantinedInput> planned = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Step> steps = new ArrayList<>();
    for (DlqEntry entry : selected) {
      QuarantinedInput input = inputs.inputOf(entry);
      if (!input.isFirst(entry)) {
        if (all) {
          steps.add(new Step(input, entry));
        } else {
          out.println(
              entry.describe()
                  + " is a later copy of "
                  + input.identity()
                  + " (a zombie sink task quarantined it again); acting on the input through its"
                  + " first record, "
                  + input.first().describe());
        }
      }
      if (planned.add(input)) {
        steps.add(new Step(input, null));
      }
    }
    return steps;
  }

  private int run(Reprocessor reprocessor, List<Step> steps, PrintWriter out, PrintWriter err) {
    Map<Outcome, Integer> tally = new EnumMap<>(Outcome.class);
    long inputs = steps.stream().filter(s -> s.laterCopy() == null).count();
    log.info(
        "{} of {} input(s) started ({} later DLQ copies to skip; dry run: {}, force: {})",
        action().label(),
        inputs,
        steps.size() - inputs,
        dryRun,
        force);
    long lastProgress = System.nanoTime();
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      Outcome outcome =
          step.laterCopy() == null
              ? reprocessor.handle(step.input())
              : reprocessor.skipLaterCopy(step.input(), step.laterCopy());
      tally.merge(outcome, 1, Integer::sum);
      out.flush();
      if (System.nanoTime() - lastProgress > PROGRESS_EVERY.toNanos()) {
        err.println(
            action().label()
                + ": "
                + (i + 1)
                + "/"
                + steps.size()
                + " DLQ records, "
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
            + inputs
            + " input(s)"
            + laterCopies(tally));
    out.flush();
    err.flush();
    log.info("{} finished: {}{}", action().label(), summary(tally), laterCopies(tally));
    if (tally.getOrDefault(Outcome.FAILED, 0) > 0) {
      return DlqCommand.EXIT_FAILED;
    }
    return tally.getOrDefault(Outcome.REFUSED_STALE, 0) > 0 ? DlqCommand.EXIT_REFUSED : 0;
  }

  private static String laterCopies(Map<Outcome, Integer> tally) {
    int copies = tally.getOrDefault(Outcome.LATER_COPY, 0);
    return copies == 0
        ? ""
        : "; " + copies + " later DLQ cop" + (copies == 1 ? "y" : "ies") + " skipped";
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
        session.kafka().transactionalProducer(transactionalId(session.dlqTopic()));
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
