package io.sluice.tools.dlq.handle;

import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqEntry;
import io.sluice.tools.dlq.record.QuarantinedInput;
import io.sluice.tools.dlq.repair.RepairException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays or repairs quarantined inputs one at a time, each through its first DLQ record: skips
 * what the ledger has (for any record of the input), plans the record, applies the stale-write
 * guard, then (unless a dry run) produces the record and its ledger entry in one Kafka transaction,
 * so a crash between them cannot produce it twice. Tells the user what it did on {@code out}, what
 * it refused or could not do on {@code err}.
 */
public final class Reprocessor {
  private static final Logger log = LoggerFactory.getLogger(Reprocessor.class);

  /** {@code dryRun}: write nothing; {@code force}: override the stale-write guard. */
  public record Options(boolean dryRun, boolean force) {}

  private final LedgerEntry.Action action;
  private final Planner planner;
  private final StaleWriteGuard guard;
  private final Ledger ledger;
  private final Producer<byte[], byte[]> producer;
  private final Set<Coordinates> poisonRecords;
  private final Options options;
  private final Clock clock;
  private final PrintWriter out;
  private final PrintWriter err;

  /**
   * @param producer an initialized transactional producer; null for a dry run
   * @param poisonRecords original coordinates of every DLQ record (ignored by the guard)
   */
  public Reprocessor(
      LedgerEntry.Action action,
      Planner planner,
      StaleWriteGuard guard,
      Ledger ledger,
      Producer<byte[], byte[]> producer,
      Set<Coordinates> poisonRecords,
      Options options,
      Clock clock,
      PrintWriter out,
      PrintWriter err) {
    if (producer == null && !options.dryRun()) {
      throw new IllegalArgumentException("a producer is needed unless it is a dry run");
    }
    this.action = action;
    this.planner = planner;
    this.guard = guard;
    this.ledger = ledger;
    this.producer = producer;
    this.poisonRecords = Set.copyOf(poisonRecords);
    this.options = options;
    this.clock = clock;
    this.out = out;
    this.err = err;
  }

  /** Handles one input through its first DLQ record. */
  public Outcome handle(QuarantinedInput input) {
    DlqEntry entry = input.first();
    String what = entry.describe();
    if (!entry.readable()) {
      err.println("cannot " + action.label() + " " + what + ": " + entry.problem());
      return Outcome.FAILED;
    }
    Optional<LedgerEntry> done = ledger.find(input);
    if (done.isPresent()) {
      LedgerEntry previous = done.get();
      out.println(
          what
              + ": already "
              + previous.action().pastTense()
              + " at "
              + previous.handledAt()
              + " (produced "
              + previous.produced()
              + "); skipping");
      return Outcome.ALREADY_HANDLED;
    }
    PlannedRecord plan;
    try {
      plan = planner.plan(entry);
    } catch (RepairException e) {
      err.println(
          "cannot "
              + action.label()
              + " "
              + what
              + " (original "
              + entry.original()
              + "): "
              + e.getMessage());
      return Outcome.FAILED;
    }
    Optional<StaleWriteGuard.NewerEvent> newer = guard.newerEvent(entry, plan, this::ignored);
    if (newer.isPresent() && !options.force()) {
      err.println(refusal(entry, plan, newer.get()));
      return Outcome.REFUSED_STALE;
    }
    newer.ifPresent(
        n -> out.println(what + ": a newer event for its key is at " + n.at() + "; --force given"));
    if (options.dryRun()) {
      out.println("dry run: would " + action.label() + " " + what + " -> " + plan.describe());
      return Outcome.WOULD_PRODUCE;
    }
    Coordinates produced = produce(entry, plan, newer.isPresent());
    out.println(
        action.pastTense()
            + " "
            + what
            + " -> "
            + produced
            + " (value schema id "
            + (plan.valueSchemaId() == null ? "none" : plan.valueSchemaId())
            + ", value sha256 "
            + plan.valueSha256()
            + ")");
    return Outcome.PRODUCED;
  }

  /**
   * Skips {@code copy}, a later DLQ record of {@code input}, saying why on {@code out}.
   *
   * @throws IllegalArgumentException when {@code copy} is the input's first record
   */
  public Outcome skipLaterCopy(QuarantinedInput input, DlqEntry copy) {
    if (input.isFirst(copy)) {
      throw new IllegalArgumentException(
          copy.describe() + " is the first record of " + input.identity() + ", not a later copy");
    }
    out.println(
        copy.describe()
            + ": a later copy of "
            + input.identity()
            + " (a zombie sink task quarantined it again); skipping: an input is "
            + action.pastTense()
            + " once, through its first record ("
            + input.first().describe()
            + ")");
    return Outcome.LATER_COPY;
  }

  private Coordinates produce(DlqEntry entry, PlannedRecord plan, boolean forced) {
    String key = Ledger.keyOf(entry);
    producer.beginTransaction();
    try {
      RecordMetadata sent = producer.send(plan.record()).get();
      Coordinates produced = new Coordinates(sent.topic(), sent.partition(), sent.offset());
      LedgerEntry done =
          new LedgerEntry(
              plan.action(),
              plan.strategy(),
              clock.instant(),
              entry.dlq(),
              entry.original(),
              produced,
              forced,
              plan.valueSha256());
      producer.send(ledger.record(key, done)).get();
      producer.commitTransaction();
      ledger.add(key, done);
      log.debug(
          "{} {} -> {} (value sha256 {}, forced {})",
          action.pastTense(),
          entry.describe(),
          produced,
          plan.valueSha256(),
          forced);
      return produced;
    } catch (ProducerFencedException | InvalidProducerEpochException e) {
      throw new IllegalStateException(
          "another `sluice dlq` run took over the ledger of "
              + ledger.topic()
              + " while "
              + entry.describe()
              + " was being handled; nothing of it was committed. Rerun when the other run ends",
          e);
    } catch (ExecutionException | KafkaException e) {
      abort();
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      throw new IllegalStateException(
          "cannot produce the "
              + action.label()
              + " of "
              + entry.describe()
              + " to "
              + plan.record().topic()
              + ": "
              + cause.getMessage()
              + "; the transaction was aborted, nothing was written. Rerun to retry",
          cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abort();
      throw new IllegalStateException("interrupted while producing " + entry.describe(), e);
    }
  }

  private void abort() {
    try {
      producer.abortTransaction();
    } catch (KafkaException e) {
      log.warn("could not abort the transaction: {}", e.getMessage());
    }
  }

  private boolean ignored(Coordinates at) {
    return poisonRecords.contains(at) || ledger.producedAt(at);
  }

  private String refusal(DlqEntry entry, PlannedRecord plan, StaleWriteGuard.NewerEvent newer) {
    return "refusing to "
        + action.label()
        + " "
        + entry.describe()
        + " (original "
        + entry.original()
        + "): a newer event for key "
        + plan.key().describe()
        + " follows it at "
        + newer.at()
        + " (timestamp "
        + java.time.Instant.ofEpochMilli(newer.timestampMs())
        + "); writing it now would overwrite newer data with older. Check that event; to write"
        + " anyway, rerun with --force";
  }
}
