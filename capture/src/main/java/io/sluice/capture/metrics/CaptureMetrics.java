package io.sluice.capture.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Capture metrics: events by table and op, milliseconds behind the source, and the last binlog
 * position (file index, position, GTID sequence) as numbers a dashboard can plot.
 */
public final class CaptureMetrics {
  private final MeterRegistry registry;
  private final Clock clock;
  private final Map<String, Counter> events = new ConcurrentHashMap<>();
  private final AtomicLong millisBehind = new AtomicLong();
  private final AtomicLong binlogFileIndex = new AtomicLong(-1);
  private final AtomicLong binlogPosition = new AtomicLong(-1);
  private final AtomicLong gtidSequence = new AtomicLong(-1);

  public CaptureMetrics(MeterRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
    Gauge.builder("sluice.capture.millis.behind.source", millisBehind, AtomicLong::get)
        .description("Milliseconds between the source commit and its publication to Kafka")
        .register(registry);
    Gauge.builder("sluice.capture.binlog.file.index", binlogFileIndex, AtomicLong::get)
        .description("Numeric suffix of the last published binlog file")
        .register(registry);
    Gauge.builder("sluice.capture.binlog.position", binlogPosition, AtomicLong::get)
        .description("Position in the binlog file of the last published event")
        .register(registry);
    Gauge.builder("sluice.capture.gtid.sequence", gtidSequence, AtomicLong::get)
        .description("Sequence number of the last published GTID (domain-server-sequence)")
        .register(registry);
  }

  /** Records one published change event. */
  public void published(SourceRecord record) {
    if (!(record.value() instanceof Struct value) || value.schema().field("op") == null) {
      return; // tombstone or non-envelope record
    }
    Struct source = value.schema().field("source") == null ? null : value.getStruct("source");
    String table =
        source == null ? record.topic() : source.getString("db") + "." + source.getString("table");
    String op = value.getString("op");
    events
        .computeIfAbsent(
            table + "\u0000" + op,
            k ->
                Counter.builder("sluice.capture.events")
                    .description("Change events published, by source table and Debezium op")
                    .tag("table", table)
                    .tag("op", op)
                    .register(registry))
        .increment();
    if (source != null && source.schema().field("ts_ms") != null && source.get("ts_ms") != null) {
      millisBehind.set(Math.max(0, clock.millis() - source.getInt64("ts_ms")));
    }
    position(record.sourceOffset());
  }

  private void position(Map<String, ?> offset) {
    if (offset == null) {
      return;
    }
    if (offset.get("file") instanceof String file) {
      int dot = file.lastIndexOf('.');
      try {
        binlogFileIndex.set(Long.parseLong(file.substring(dot + 1)));
      } catch (NumberFormatException e) {
        binlogFileIndex.set(-1);
      }
    }
    if (offset.get("pos") instanceof Number pos) {
      binlogPosition.set(pos.longValue());
    }
    Object gtids = offset.get("gtids");
    if (gtids == null) {
      gtids = offset.get("gtid");
    }
    if (gtids instanceof String text && !text.isBlank()) {
      String last = text.substring(text.lastIndexOf(',') + 1).trim();
      String seq = last.substring(Math.max(last.lastIndexOf('-'), last.lastIndexOf(':')) + 1);
      try {
        gtidSequence.set(Long.parseLong(seq));
      } catch (NumberFormatException e) {
        gtidSequence.set(-1);
      }
    }
  }
}
