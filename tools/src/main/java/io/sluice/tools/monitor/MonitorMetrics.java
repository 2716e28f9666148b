package io.sluice.tools.monitor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.sluice.contract.TopicNames;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The monitor's meters. Names are Micrometer's dotted form; the Prometheus registry renders them as
 * {@code sluice_dlq_records{stage,error_code}}, {@code sluice_dlq_inputs{stage,error_code}}, {@code
 * sluice_dlq_backlog_records{stage,error_code}}, {@code sluice_dlq_oldest_unrepaired_age_seconds},
 * {@code sluice_dlq_records_handled_total{action}} and {@code
 * sluice_dlq_unreadable_records_total{kind}} (all with {@code topic}, the source topic, and {@code
 * dlq_topic}; {@code topic} is the DLQ topic's input topic, by the router's DLQ suffix, so that
 * dashboards select these series as the router's), {@code
 * sluice_consumer_group_lag_records{group,topic}}, {@code
 * sluice_monitor_last_refresh_timestamp_seconds} and {@code sluice_monitor_refresh_failures_total}.
 *
 * <p>A DLQ topic's meters are registered with the numbers of its first read: its counters start at
 * 0 for a new DLQ (Prometheus's {@code rate()} needs that sample before the first repair), and at
 * what the ledger already holds when the monitor restarts, so a restart shows no burst of repairs.
 *
 * <p>{@code sluice_dlq_records} counts DLQ records (each offset once); {@code sluice_dlq_inputs}
 * and the backlog count quarantined inputs, as the DLQ tools act on them: a zombie sink task may
 * write a second DLQ record of an input, which is one more record but no second input. The backlog
 * kept its name ({@code _records}, as dashboards query it) and counts inputs since copies exist.
 *
 * <p>{@code stage} ({@code router}, {@code sink}) and {@code error_code} say who quarantined a DLQ
 * record and why. A (stage, code) series appears with the first record of its kind and stays (at 0
 * once its backlog is handled). Every DLQ topic also has the series {@code
 * stage="unknown",error_code="UNREADABLE"} from its first read (DLQ records no tool can read; never
 * in the backlog), so a DLQ topic without records still shows 0 to a {@code sum by (topic)}.
 */
public final class MonitorMetrics {
  public static final String DLQ_RECORDS = "sluice.dlq.records";
  public static final String DLQ_INPUTS = "sluice.dlq.inputs";
  public static final String DLQ_BACKLOG = "sluice.dlq.backlog.records";
  public static final String DLQ_OLDEST_AGE = "sluice.dlq.oldest.unrepaired.age";
  public static final String DLQ_HANDLED = "sluice.dlq.records.handled";
  public static final String DLQ_UNREADABLE = "sluice.dlq.unreadable.records";
  public static final String GROUP_LAG = "sluice.consumer.group.lag.records";
  public static final String LAST_REFRESH = "sluice.monitor.last.refresh.timestamp";
  public static final String REFRESH_FAILURES = "sluice.monitor.refresh.failures";

  private final MeterRegistry registry;
  private final Clock clock;
  private final TopicNames names;
  private final MultiGauge lag;
  private final AtomicLong lastRefreshMs = new AtomicLong();
  private final Counter refreshFailures;
  private Gauge lastRefresh;

  /**
   * @param names the router's topic names: a DLQ topic's {@code topic} label is its input topic
   */
  public MonitorMetrics(MeterRegistry registry, Clock clock, TopicNames names) {
    this.registry = registry;
    this.clock = clock;
    this.names = names;
    this.lag =
        MultiGauge.builder(GROUP_LAG)
            .description(
                "Records a consumer group has not committed yet: per topic, the sum over its"
                    + " partitions of the read_committed end offset minus the committed offset")
            .register(registry);
    this.refreshFailures =
        Counter.builder(REFRESH_FAILURES)
            .description("Monitor refreshes that failed (broker unreachable, timeouts)")
            .register(registry);
  }

  /**
   * The source topic of a DLQ topic, its {@code topic} label: its input topic (the name without the
   * DLQ suffix), else the name.
   */
  public String sourceTopic(String dlqTopic) {
    return names.isDlqTopic(dlqTopic) ? names.inputTopic(dlqTopic).orElseThrow() : dlqTopic;
  }

  /** Registers the meters of {@code dlqTopic}, showing {@code first}. */
  public DlqMeters dlqTopic(String dlqTopic, DlqSnapshot first) {
    DlqMeters meters = new DlqMeters(dlqTopic);
    meters.publish(first);
    meters.register();
    return meters;
  }

  /** Replaces the lag values: a group and topic that is no longer listed loses its series. */
  public void lag(Map<GroupTopic, Long> lagByGroupTopic) {
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    lagByGroupTopic.forEach(
        (at, records) ->
            rows.add(
                MultiGauge.Row.of(Tags.of("group", at.group(), "topic", at.topic()), records)));
    lag.register(rows, true);
  }

  /** Records a refresh that completed at {@code at}. */
  public void refreshed(Instant at) {
    lastRefreshMs.set(at.toEpochMilli());
    if (lastRefresh == null) {
      lastRefresh =
          Gauge.builder(LAST_REFRESH, lastRefreshMs, ms -> ms.get() / 1000.0)
              .description("When the monitor's last complete refresh ended (epoch)")
              .baseUnit("seconds")
              .strongReference(true)
              .register(registry);
    }
  }

  public void refreshFailed() {
    refreshFailures.increment();
  }

  /** One DLQ topic's meters; {@link #publish} sets what they show, {@link #close} removes them. */
  public final class DlqMeters implements AutoCloseable {
    private final String dlqTopic;
    private final Map<QuarantineCause, AtomicLong> records = new HashMap<>();
    private final Map<QuarantineCause, AtomicLong> inputs = new HashMap<>();
    private final Map<QuarantineCause, AtomicLong> backlog = new HashMap<>();
    private final AtomicLong oldestMs = new AtomicLong(-1);
    private final AtomicLong repaired = new AtomicLong();
    private final AtomicLong replayed = new AtomicLong();
    private final AtomicLong unreadableRecords = new AtomicLong();
    private final AtomicLong unreadableLedgerRecords = new AtomicLong();
    private final List<Meter> meters = new ArrayList<>();
    private final Tags tags;
    private boolean registered;

    private DlqMeters(String dlqTopic) {
      this.dlqTopic = dlqTopic;
      this.tags = Tags.of("topic", sourceTopic(dlqTopic), "dlq_topic", dlqTopic);
      causeGauges(QuarantineCause.UNREADABLE);
    }

    /** Shows {@code snapshot}; the counters never go down, so a smaller count is ignored. */
    public void publish(DlqSnapshot snapshot) {
      snapshot.recordsByCause().keySet().forEach(this::causeGauges);
      snapshot.inputsByCause().keySet().forEach(this::causeGauges);
      snapshot.backlogByCause().keySet().forEach(this::causeGauges);
      records.forEach(
          (cause, count) -> count.set(snapshot.recordsByCause().getOrDefault(cause, 0L)));
      inputs.forEach((cause, count) -> count.set(snapshot.inputsByCause().getOrDefault(cause, 0L)));
      backlog.forEach(
          (cause, count) -> count.set(snapshot.backlogByCause().getOrDefault(cause, 0L)));
      oldestMs.set(
          snapshot.oldestQuarantinedAt() == null
              ? -1
              : snapshot.oldestQuarantinedAt().toEpochMilli());
      repaired.accumulateAndGet(snapshot.repaired(), Math::max);
      replayed.accumulateAndGet(snapshot.replayed(), Math::max);
      unreadableRecords.accumulateAndGet(snapshot.unreadableRecords(), Math::max);
      unreadableLedgerRecords.accumulateAndGet(snapshot.unreadableLedgerRecords(), Math::max);
    }

    /** The age the oldest-unrepaired gauge shows now, in seconds; 0 without a backlog. */
    public double oldestAgeSeconds() {
      long ms = oldestMs.get();
      return ms < 0 ? 0 : Math.max(0, clock.millis() - ms) / 1000.0;
    }

    /** The records, inputs and backlog values of {@code cause}, registered once the topic's are. */
    private void causeGauges(QuarantineCause cause) {
      if (records.containsKey(cause)) {
        return;
      }
      records.put(cause, new AtomicLong());
      inputs.put(cause, new AtomicLong());
      backlog.put(cause, new AtomicLong());
      if (registered) {
        registerCause(cause);
      }
    }

    private void registerCause(QuarantineCause cause) {
      Tags causeTags = tags.and("stage", cause.stage(), "error_code", cause.errorCode());
      meters.add(
          Gauge.builder(DLQ_RECORDS, records.get(cause), AtomicLong::get)
              .description(
                  "DLQ records read (each offset once, handled or not), by the stage that"
                      + " quarantined them and their error code")
              .tags(causeTags)
              .strongReference(true)
              .register(registry));
      meters.add(
          Gauge.builder(DLQ_INPUTS, inputs.get(cause), AtomicLong::get)
              .description(
                  "Quarantined inputs read (handled or not): DLQ records, a later copy of an input"
                      + " a zombie sink task wrote counted once, by the stage that quarantined them"
                      + " and their error code")
              .tags(causeTags)
              .strongReference(true)
              .register(registry));
      meters.add(
          Gauge.builder(DLQ_BACKLOG, backlog.get(cause), AtomicLong::get)
              .description(
                  "Quarantined inputs not yet repaired or replayed (no ledger entry for any of their"
                      + " DLQ records; a zombie's later copy counted once), by the stage that"
                      + " quarantined them and their error code")
              .tags(causeTags)
              .strongReference(true)
              .register(registry));
    }

    private void register() {
      registered = true;
      records.keySet().forEach(this::registerCause);
      meters.add(
          Gauge.builder(DLQ_OLDEST_AGE, this, DlqMeters::oldestAgeSeconds)
              .description(
                  "Now minus the quarantined_at of the oldest quarantined input not yet repaired"
                      + " or replayed (its earliest DLQ record); 0 when there is none")
              .tags(tags)
              .baseUnit("seconds")
              .strongReference(true)
              .register(registry));
      meters.add(handled(tags, "repaired", repaired));
      meters.add(handled(tags, "replayed", replayed));
      meters.add(unreadable(tags, "envelope", unreadableRecords));
      meters.add(unreadable(tags, "ledger", unreadableLedgerRecords));
    }

    private Meter handled(Tags tags, String action, AtomicLong count) {
      return FunctionCounter.builder(DLQ_HANDLED, count, AtomicLong::get)
          .description("Ledger entries read: DLQ records repaired or replayed by sluice dlq")
          .tags(tags.and("action", action))
          .register(registry);
    }

    private Meter unreadable(Tags tags, String kind, AtomicLong count) {
      return FunctionCounter.builder(DLQ_UNREADABLE, count, AtomicLong::get)
          .description(
              "Records the monitor could not read: DLQ records that are no DLQ record"
                  + " (kind=envelope), ledger records that are no entry (kind=ledger)")
          .tags(tags.and("kind", kind))
          .register(registry);
    }

    /** Removes the meters (the DLQ topic is gone). */
    @Override
    public void close() {
      meters.forEach(registry::remove);
      meters.clear();
    }
  }
}
