package io.sluice.bench.cli;

import io.sluice.bench.sink.SinkBench;
import io.sluice.bench.sink.SinkBench.Settings;
import io.sluice.bench.sink.SinkBenchResult;
import io.sluice.bench.sink.SinkBenchResult.Freshness;
import io.sluice.bench.sink.SinkBenchResult.Limit;
import io.sluice.bench.sink.SinkBenchResult.Stages;
import io.sluice.bench.sink.SinkBenchResult.Throughput;
import io.sluice.bench.sink.TableCheck;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice bench sink}: the upsert sink against the Apache Iceberg sink. */
@Command(
    name = "sink",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the Sluice upsert sink and the Apache Iceberg sink side by side on one topic of"
          + " Debezium envelopes (N records over K keys, a mix of c/u/d), on a fresh broker,"
          + " registry, Connect worker and SQLite catalog in a temporary directory.",
      "Preload (--preload): first every one of the K keys is created, in key order, and both"
          + " sinks are waited for (untimed), so the backlog updates a table that already holds K"
          + " rows: the sink's capacity at a table size, e.g. --keys 300000 against --keys 10000.",
      "Throughput (--backlog drain, the default): N records produced at once with both"
          + " connectors paused; then the upsert sink alone is resumed, and once the snapshot"
          + " that made the last record visible is committed it is paused again and the Apache"
          + " sink alone works off the same backlog. Each sink's rate is N over the time from its"
          + " resume to that commit: the sink's own capacity, measured as the limit's is, with"
          + " the machine to itself. --backlog live: both connectors running while the N records"
          + " are produced, each rate timed from the first record produced (bounded by the"
          + " producer, and the two sinks share the CPU). Prints upserts/s, appends/s and their"
          + " ratio (target >= 0.8).",
      "Freshness: then --paced-seconds of records at --rate; each is timed from produce to the"
          + " commit time of the first snapshot that made it visible (upsert: the offsets in"
          + " sluice.offsets.*; changelog: the highest _kafka_metadata offset appended)."
          + " Prints p50/p95/p99 against the commit interval (target p99 <= 2x).",
      "Then checks that the current table holds exactly the state the changes leave and the"
          + " changelog every event once; exits 1 when it does not.",
      "Limit (unless --no-limit): with both connectors deleted, the same records are read again"
          + " in one thread without Kafka Connect (a byte consumer, read committed; one cached"
          + " Avro reader per schema id) and upserted with the sink's own writers (small"
          + " partitions merged, else Parquet files and deletes by position from the key index;"
          + " its commit) into cdc_lab.orders_limit, at the same commit interval. Its rate is"
          + " the backlog over the time from its first poll to the commit that covered the last"
          + " record. Prints it, the upsert and Apache sinks'"
          + " rates over it, where its thread's time went, and the same check of its table"
          + " (exit 1 when it fails)."
    })
final class SinkBenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--records", required = true, description = "N, the backlog of records.")
  long records;

  @Option(names = "--keys", required = true, description = "K, the order ids the changes touch.")
  long keys;

  @Option(
      names = "--preload",
      description =
          "Create all K keys before the backlog (untimed), so it works on a table of K rows"
              + " (default: off, the backlog starts on an empty table).")
  boolean preload;

  @Option(
      names = "--commit-interval-ms",
      defaultValue = "1000",
      description = "Both sinks' commit interval (default: ${DEFAULT-VALUE}).")
  long commitIntervalMs;

  @Option(
      names = "--rate",
      defaultValue = "0",
      description =
          "Records/s of the freshness phase (default: 0, half the slower sink's backlog rate).")
  double rate;

  @Option(
      names = "--paced-seconds",
      defaultValue = "20",
      description = "How long the freshness phase produces (default: ${DEFAULT-VALUE}).")
  long pacedSeconds;

  @Option(
      names = "--upsert-path",
      defaultValue = "direct",
      paramLabel = "direct|converter",
      description =
          "How the upsert sink reads the records: direct (ByteArrayConverter and the sink's"
              + " schema.registry.url: it decodes the wire Avro itself) or converter (Sluice's"
              + " RegistryAvroConverter makes Connect data first). Default: ${DEFAULT-VALUE}.")
  String upsertPath;

  @Option(
      names = "--backlog",
      defaultValue = "drain",
      paramLabel = "drain|live",
      description =
          "How the backlog is timed: drain (produced with both sinks paused, then each works it"
              + " off alone) or live (both consume while it is produced). Default:"
              + " ${DEFAULT-VALUE}.")
  String backlog;

  @Option(
      names = "--warmup-records",
      defaultValue = "100000",
      description =
          "Records each sink works off alone before the backlog, untimed (after the preload), so"
              + " that the JVM compiles the sinks' code before the timed drain; 0 for none"
              + " (default: ${DEFAULT-VALUE}).")
  long warmupRecords;

  @Option(
      names = "--no-limit",
      description = "Skip the limit phase (default: run it after the sinks).")
  boolean noLimit;

  @Option(
      names = "--timeout",
      defaultValue = "600",
      description = "Seconds each phase may wait for the tables (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (!upsertPath.equals("direct") && !upsertPath.equals("converter")) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--upsert-path is direct or converter, got '" + upsertPath + "'");
    }
    if (!backlog.equals("drain") && !backlog.equals("live")) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--backlog is drain or live, got '" + backlog + "'");
    }
    Settings settings =
        new Settings(
            records,
            keys,
            commitIntervalMs,
            rate,
            pacedSeconds,
            Duration.ofSeconds(timeoutSeconds),
            preload,
            !noLimit,
            upsertPath.equals("direct"),
            backlog.equals("drain"),
            warmupRecords);
    SinkBenchResult result =
        new SinkBench(
                settings,
                line -> {
                  err.println("bench sink: " + line);
                  err.flush();
                })
            .run();
    spec.commandLine().getOut().printf("upsert sink path: %s%n", upsertPath);
    spec.commandLine()
        .getOut()
        .printf(
            "backlog: %s%n",
            settings.drain()
                ? "drain (each sink alone, timed from its resume)"
                : "live (both sinks while it is produced, timed from the first record)");
    print(spec.commandLine().getOut(), result);
    return result.passed() ? 0 : 1;
  }

  static void print(PrintWriter out, SinkBenchResult r) {
    SinkBenchResult.Workload w = r.workload();
    if (w.preloadedRecords() > 0) {
      out.printf(
          "preloaded %,d keys before the backlog (untimed): the backlog updates a table of %,d"
              + " rows%n",
          w.preloadedRecords(), w.preloadedRecords());
    }
    if (w.warmupRecords() > 0) {
      out.printf(
          "warm-up: %,d records worked off by each sink alone before the backlog (untimed)%n",
          w.warmupRecords());
    }
    out.printf(
        "records %,d + %,d paced over %,d keys (c %,d, u %,d, d %,d), 3 partitions,"
            + " commit interval %d ms%n",
        w.backlogRecords(),
        w.pacedRecords(),
        w.keys(),
        w.creates(),
        w.updates(),
        w.deletes(),
        r.commitIntervalMs());
    throughput(out, "upsert sink (current):   ", "upserts/s", r.upserts());
    throughput(out, "Apache sink (changelog): ", "appends/s", r.appends());
    out.printf(
        "ratio upserts/appends: %.3f (target >= %.1f: %s)%n",
        r.ratio(), SinkBenchResult.TARGET_RATIO, r.ratioMet() ? "met" : "NOT met");
    limit(out, r);
    out.printf(
        "freshness, %,d records at %,.0f records/s, produce -> visible in Iceberg:%n",
        r.paced().records(), r.paced().recordsPerSecond());
    freshness(out, "upsert sink (current):   ", r.upsertFreshness(), r.commitIntervalMs());
    freshness(out, "Apache sink (changelog): ", r.appendFreshness(), r.commitIntervalMs());
    SinkBenchResult.Check c = r.check();
    out.printf(
        "check: current table %,d rows (expected %,d, wrong keys %d); changelog %,d rows,"
            + " %,d distinct offsets (expected %,d): %s%n",
        c.currentRows(),
        c.expectedRows(),
        c.wrongKeys(),
        c.changelogRows(),
        c.changelogCoordinates(),
        c.expectedEvents(),
        c.passed() ? "passed" : "FAILED");
    if (r.limit() != null) {
      TableCheck lc = r.limit().check();
      out.printf(
          "limit check: table %,d rows (expected %,d, wrong keys %d, duplicate keys %d): %s%n",
          lc.rows(),
          lc.expectedRows(),
          lc.wrongKeys(),
          lc.duplicateKeys(),
          lc.passed() ? "passed" : "FAILED");
    }
    out.flush();
  }

  private static void limit(PrintWriter out, SinkBenchResult r) {
    Limit limit = r.limit();
    if (limit == null) {
      out.printf("limit (one thread, no Connect): not run (--no-limit)%n");
      return;
    }
    throughput(out, "limit (one thread, no Connect): ", "records/s", limit.backlog());
    out.printf(
        "upsert sink / limit %.3f; Apache sink / limit %.3f%n",
        r.upsertsOverLimit(), r.appendsOverLimit());
    Stages s = limit.stages();
    out.printf(
        "limit's thread CPU %.2f s (%,.0f records per CPU second): read %.2f s, decode %.2f s,"
            + " convert %.2f s, reduce %.2f s, write %.2f s, key index %.2f s, commit %.2f s,"
            + " other %.2f s; snapshots by commit mode %s%n",
        s.cpuMs() / 1000.0,
        limit.recordsPerCpuSecond(),
        s.readMs() / 1000.0,
        s.decodeMs() / 1000.0,
        s.convertMs() / 1000.0,
        s.reduceMs() / 1000.0,
        s.writeMs() / 1000.0,
        s.keyIndexMs() / 1000.0,
        s.commitMs() / 1000.0,
        s.otherMs() / 1000.0,
        limit.commitModes());
  }

  private static void throughput(PrintWriter out, String label, String unit, Throughput t) {
    out.printf(
        "%s%,10.0f %s  (%,d records in %.2f s, %d snapshots)%n",
        label, t.recordsPerSecond(), unit, t.records(), t.elapsedMs() / 1000.0, t.snapshots());
  }

  private static void freshness(PrintWriter out, String label, Freshness f, long intervalMs) {
    out.printf(
        "%sp50 %,6d ms  p95 %,6d ms  p99 %,6d ms  max %,6d ms  (target p99 <= %,d ms: %s)%n",
        label,
        f.p50Ms(),
        f.p95Ms(),
        f.p99Ms(),
        f.maxMs(),
        (long) (SinkBenchResult.TARGET_FRESHNESS_INTERVALS * intervalMs),
        f.meets(intervalMs) ? "met" : "NOT met");
  }
}
