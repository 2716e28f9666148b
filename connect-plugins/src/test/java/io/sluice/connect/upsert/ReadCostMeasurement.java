package io.sluice.connect.upsert;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.record;
import static io.sluice.connect.testing.Envelopes.row;
import static org.awaitility.Awaitility.await;

import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.quarantine.QuarantineClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not a test: the measurement behind the default of {@code maintenance.rewrite.delete-files}
 * (docs/design.md#table-maintenance). Figures are logged, never asserted. Run with {@code mvn -o
 * -pl connect-plugins -am test -Dtest=ReadCostMeasurement -Dsluice.measure=true
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "sluice.measure", matches = "true")
class ReadCostMeasurement {
  private static final Logger log = LoggerFactory.getLogger(ReadCostMeasurement.class);
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TopicPartition P0 = new TopicPartition("broker.cdc_lab.orders.clean", 0);
  private static final int KEYS = Integer.getInteger("sluice.measure.keys", 10_000);
  private static final int[] SAMPLES = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32};

  @TempDir Path dir;

  /** Full-scan time of a 10,000-key table against its outstanding equality-delete files. */
  @Test
  void scanTimeByOutstandingDeleteFiles() throws IOException {
    warmUp();
    for (String run : new String[] {"100/2", "1000/2", "1000/3"}) {
      int batch = Integer.parseInt(run.split("/")[0]);
      String version = run.split("/")[1];
      try (Lake lake = new Lake(Files.createTempDirectory(dir, "scan"))) {
        SinkHarness sink =
            sink(lake, Map.of("maintenance.enabled", "false", "table.format.version", version));
        Random random = new Random(18);
        long[] offset = {0};
        load(sink, offset);
        compact(lake);
        double compacted = compactedScanMillis();
        int commits = 0;
        for (int sample : SAMPLES) {
          while (commits < sample) {
            sink.put(updates(random, batch, offset));
            sink.commit();
            commits++;
          }
          double ms = scanMillis(lake.table(TABLE));
          log.info(
              "v{}, batch {} keys, {} delete files: scan {} ms, {}x the compacted {} ms",
              version,
              batch,
              sample,
              String.format("%.1f", ms),
              String.format("%.2f", ms / compacted),
              String.format("%.1f", compacted));
        }
        sink.stop();
      }
    }
  }

  /**
   * The sink's throughput (commits back to back, 1,000 keys each) without maintenance and with it
   * at several thresholds, interleaved over rounds so that JIT warm-up and disk cache favour none.
   */
  @Test
  void sinkThroughputByThreshold() throws IOException {
    warmUp();
    int commits = Integer.getInteger("sluice.measure.commits", 48);
    int rounds = Integer.getInteger("sluice.measure.rounds", 3);
    String[] thresholds = System.getProperty("sluice.measure.thresholds", "off,1,2,4,8").split(",");
    Map<String, List<Double>> rates = new java.util.LinkedHashMap<>();
    for (int round = 0; round < rounds; round++) {
      for (String threshold : thresholds) {
        try (Lake lake = new Lake(Files.createTempDirectory(dir, "sink"))) {
          SinkHarness sink = sink(lake, maintenance(threshold));
          Random random = new Random(round);
          long[] offset = {0};
          load(sink, offset);
          long started = System.nanoTime();
          for (int i = 0; i < commits; i++) {
            sink.put(updates(random, 1_000, offset));
            sink.commit();
          }
          double seconds = (System.nanoTime() - started) / 1e9;
          rates.computeIfAbsent(threshold, t -> new ArrayList<>()).add(commits * 1_000 / seconds);
          log.info(
              "round {} threshold {}: {} records/s, at the end {}",
              round,
              threshold,
              String.format("%.0f", commits * 1_000 / seconds),
              layout(lake.table(TABLE)));
          sink.stop();
        }
      }
    }
    double off = median(rates.get(thresholds[0]));
    rates.forEach(
        (threshold, values) ->
            log.info(
                "{} keys, threshold {}: median {} records/s over {} rounds, {}x without",
                KEYS,
                threshold,
                String.format("%.0f", median(values)),
                values.size(),
                String.format("%.2f", median(values) / off)));
  }

  /**
   * The scan time of a maintained table after each commit: right after it, and once the maintenance
   * is idle (at most the default commit interval later: what a reader sees until the next commit),
   * against a compacted table of the same keys.
   */
  @Test
  void maintainedTableScanByThreshold() throws IOException {
    warmUp();
    int sampled = Integer.getInteger("sluice.measure.sampled", 24);
    for (String threshold : System.getProperty("sluice.measure.thresholds", "1,2,4,8").split(",")) {
      try (Lake lake = new Lake(Files.createTempDirectory(dir, "sink"))) {
        SinkHarness sink = sink(lake, maintenance(threshold));
        Random random = new Random(18);
        long[] offset = {0};
        load(sink, offset);
        double[] afterCommit = new double[sampled];
        double[] idle = new double[sampled];
        double compacted = compactedScanMillis();
        for (int i = 0; i < sampled; i++) {
          sink.put(updates(random, 1_000, offset));
          sink.commit();
          afterCommit[i] = scanMillis(lake.table(TABLE));
          awaitIdle(lake, threshold);
          idle[i] = scanMillis(lake.table(TABLE));
        }
        compacted = (compacted + compactedScanMillis()) / 2;
        Table table = lake.table(TABLE);
        String layout = layout(table);
        table.rewriteManifests().clusterBy(f -> f.specId()).commit();
        log.info(
            "threshold {}: scan/compacted right after a commit: worst {}x median {}x; maintenance"
                + " idle: worst {}x median {}x (compacted {} ms); at the end {}: {}x, {}x once"
                + " its data manifests are rewritten",
            threshold,
            ratio(afterCommit, compacted, 1.0),
            ratio(afterCommit, compacted, 0.5),
            ratio(idle, compacted, 1.0),
            ratio(idle, compacted, 0.5),
            String.format("%.2f", compacted),
            layout,
            String.format("%.2f", idle[sampled - 1] / compacted),
            String.format("%.2f", scanMillis(lake.table(TABLE)) / compacted));
        sink.stop();
      }
    }
  }

  /**
   * What a merge at commit costs the sink by table size: commits of 1,000 updates to a table of
   * 10,000 to 300,000 keys, merged against written with equality deletes (rewrites off), median
   * commit time of 10 after 2 untimed.
   */
  @Test
  void commitTimeByTableSizeMergedOrNot() throws IOException {
    warmUp();
    for (int keys : new int[] {10_000, 100_000, 300_000}) {
      for (String merge : new String[] {"0", String.valueOf(1L << 30)}) {
        try (Lake lake = new Lake(Files.createTempDirectory(dir, "merge"))) {
          SinkHarness sink =
              sink(
                  lake,
                  Map.of(
                      "maintenance.merge.max-bytes", merge,
                      "maintenance.rewrite.delete-files", "1000",
                      "maintenance.rewrite.small-files", "1000"));
          long[] offset = {0};
          List<SinkRecord> records = new ArrayList<>();
          for (int id = 0; id < keys; id++) {
            records.add(record(0, offset[0]++, key(id), change("c", null, row(id, "v0-" + id))));
          }
          sink.put(records);
          sink.commit();
          Random random = new Random(7);
          double[] ms = new double[10];
          for (int i = -2; i < ms.length; i++) {
            List<SinkRecord> batch = new ArrayList<>();
            for (int j = 0; j < 1_000; j++) {
              int id = random.nextInt(keys);
              batch.add(record(0, offset[0], key(id), change("u", null, row(id, "v" + offset[0]))));
              offset[0]++;
            }
            sink.put(batch);
            long started = System.nanoTime();
            sink.commit();
            if (i >= 0) {
              ms[i] = (System.nanoTime() - started) / 1e6;
            }
          }
          Arrays.sort(ms);
          Table table = lake.table(TABLE);
          log.info(
              "{} keys, merge.max-bytes {}: commit of 1,000 updates median {} ms, max {} ms;"
                  + " table {} bytes of data files, {}",
              keys,
              merge,
              String.format("%.0f", ms[ms.length / 2]),
              String.format("%.0f", ms[ms.length - 1]),
              table.currentSnapshot().summary().get("total-files-size"),
              layout(table));
          sink.stop();
        }
      }
    }
  }

  private static Map<String, String> maintenance(String threshold) {
    Map<String, String> extra = new HashMap<>();
    extra.put("maintenance.enabled", String.valueOf(!threshold.equals("off")));
    extra.put("maintenance.check.interval-ms", "1000");
    if (!threshold.equals("off")) {
      extra.put("maintenance.rewrite.delete-files", threshold);
    }
    return extra;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }

  /** The {@code quantile} of {@code ms} divided by {@code base}, as text. */
  private static String ratio(double[] ms, double base, double quantile) {
    if (ms.length == 0) {
      return "-";
    }
    double[] sorted = ms.clone();
    Arrays.sort(sorted);
    int at = (int) Math.min(sorted.length - 1, Math.floor(quantile * sorted.length));
    return String.format("%.2f", sorted[at] / base);
  }

  private static String layout(Table table) {
    var summary = table.currentSnapshot().summary();
    return summary.get("total-data-files")
        + " data files, "
        + summary.get("total-delete-files")
        + " delete files, "
        + table.currentSnapshot().dataManifests(table.io()).size()
        + " data manifests, "
        + table.currentSnapshot().deleteManifests(table.io()).size()
        + " delete manifests";
  }

  /** Scans until the JIT has compiled the read path, so the first samples are not inflated. */
  private void warmUp() throws IOException {
    try (Lake lake = new Lake(Files.createTempDirectory(dir, "warm-up"))) {
      SinkHarness sink = sink(lake, Map.of("maintenance.enabled", "false"));
      long[] offset = {0};
      load(sink, offset);
      Random random = new Random(1);
      for (int i = 0; i < 24; i++) {
        sink.put(updates(random, 1_000, offset));
        sink.commit();
      }
      for (int i = 0; i < 10; i++) {
        scanMillis(lake.table(TABLE));
      }
      sink.stop();
    }
  }

  /** Until the maintenance left fewer delete files than its threshold (3 s at most). */
  private static void awaitIdle(Lake lake, String threshold) {
    if (threshold.equals("off")) {
      return;
    }
    try {
      await()
          .atMost(Duration.ofSeconds(3))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> deleteFiles(lake.table(TABLE)) < Integer.parseInt(threshold));
    } catch (ConditionTimeoutException e) {
      log.info("maintenance not idle 3 s after the commit");
    }
  }

  private static long deleteFiles(Table table) {
    return Long.parseLong(table.currentSnapshot().summary().get("total-delete-files"));
  }

  private static SinkHarness sink(Lake lake, Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(lake.connectorProperties());
    props.put("name", "orders-upsert");
    props.put("topics", P0.topic());
    props.put("commit.interval.ms", "1000");
    props.putAll(extra);
    return new SinkHarness(props, List.of(P0), QuarantineClients.KAFKA);
  }

  private static void load(SinkHarness sink, long[] offset) {
    List<SinkRecord> records = new ArrayList<>();
    for (int id = 0; id < KEYS; id++) {
      records.add(record(0, offset[0]++, key(id), change("c", null, row(id, "v0-" + id))));
    }
    sink.put(records);
    sink.commit();
  }

  private static List<SinkRecord> updates(Random random, int count, long[] offset) {
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int id = random.nextInt(KEYS);
      records.add(
          record(0, offset[0], key(id), change("u", null, row(id, "v" + offset[0] + "-" + id))));
      offset[0]++;
    }
    return records;
  }

  /** The table's rows in one data file with no deletes: what a full compaction leaves. */
  private static void compact(Lake lake) {
    new ExternalCompaction(lake.catalog(), TABLE).compactOnce();
    Table table = lake.table(TABLE);
    var rewrite = table.newRewrite();
    int deletes = 0;
    for (var manifest : table.currentSnapshot().deleteManifests(table.io())) {
      try (var files = ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (var file : files) {
          rewrite.deleteFile(file);
          deletes++;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    if (deletes > 0) {
      rewrite.commit();
    }
  }

  /** The scan time of the 10,000 keys in one data file without deletes, on a table of its own. */
  private double compactedScanMillis() throws IOException {
    try (Lake copy = new Lake(Files.createTempDirectory(dir, "compacted"))) {
      SinkHarness sink = sink(copy, Map.of("maintenance.enabled", "false"));
      load(sink, new long[] {0});
      compact(copy);
      double ms = scanMillis(copy.table(TABLE));
      sink.stop();
      return ms;
    }
  }

  /** The median of 21 full scans (after 3 for warm-up), in ms. */
  private static double scanMillis(Table table) {
    double[] ms = new double[21];
    for (int i = -3; i < ms.length; i++) {
      long started = System.nanoTime();
      long rows = 0;
      try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
        for (Record ignored : records) {
          rows++;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (rows != KEYS) {
        throw new IllegalStateException(rows + " rows");
      }
      if (i >= 0) {
        ms[i] = (System.nanoTime() - started) / 1e6;
      }
    }
    Arrays.sort(ms);
    return ms[ms.length / 2];
  }
}
