package io.sluice.connect.upsert.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not a test: what a key index costs per key and how fast it fills, on the heap and spilled to
 * memory-mapped files (docs/benchmarks.md). Each index is made for its keys (as a build sizes it
 * from the snapshot's row count), filled, then every key looked up; the best of three rounds is
 * logged (wall and thread CPU time: the fill of a spilled index includes the kernel's page faults),
 * never asserted. Run with {@code mvn -o -pl connect-plugins test -Dtest=KeyIndexMeasurement
 * -Dsluice.measure=true -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "sluice.measure", matches = "true")
class KeyIndexMeasurement {
  private static final Logger log = LoggerFactory.getLogger(KeyIndexMeasurement.class);
  private static final int ROUNDS = 3;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  @TempDir Path spillDir;

  @Test
  void bytesPerKeyAndFillTimeOnTheHeapAndSpilled() {
    measure("1M long keys", 1_000_000, null);
    measure("10M long keys", 10_000_000, null);
    byte[][] keys = new byte[1_000_000][];
    for (int k = 0; k < keys.length; k++) {
      keys[k] = String.format("order-%010d", k).getBytes(StandardCharsets.UTF_8);
    }
    measure("1M byte keys of 16 bytes", keys.length, keys);
  }

  /**
   * A queue table: 1M live long keys, then 10M changes that each insert a new key and delete the
   * oldest; the most bytes per live key seen (checked every 100,000 changes) and the time per
   * change.
   */
  @Test
  void bytesPerLiveKeyUnderChurn() {
    int live = 1_000_000;
    int changes = 10_000_000;
    for (boolean spilled : new boolean[] {false, true}) {
      KeyIndex index = new KeyIndex(true, live, limits(spilled));
      for (long k = 0; k < live; k++) {
        index.put(k * 0x9E3779B97F4A7C15L, (int) (k & 63), (int) k);
      }
      double most = index.bytes() / (double) live;
      long started = System.nanoTime();
      for (long k = live; k < live + changes; k++) {
        index.put(k * 0x9E3779B97F4A7C15L, (int) (k & 63), (int) k);
        index.put((k - live) * 0x9E3779B97F4A7C15L, KeyIndex.ABSENT, 0);
        if (k % 100_000 == 0) {
          most = Math.max(most, index.bytes() / (double) index.liveKeys());
        }
      }
      long took = System.nanoTime() - started;
      assertThat(index.liveKeys()).isEqualTo(live);
      log.info(
          "KEY INDEX churn of 1M live long keys {}: {} changes, at most {} bytes per live key ({}"
              + " at the end, {} keys with a slot), {} ns per change",
          spilled ? "spilled" : "on the heap",
          changes,
          String.format("%.1f", most),
          String.format("%.1f", index.bytes() / (double) live),
          index.size(),
          String.format("%.0f", took / (double) changes));
      index.release();
    }
  }

  /** What a restarting task does: the index built from a table's Parquet files (key column). */
  @Test
  void rebuildFromParquetOnTheHeapAndSpilled() throws IOException {
    int n = 1_000_000;
    try (KeyTable keys = new KeyTable()) {
      for (long from = 0; from < n; from += 100_000) {
        keys.append(from, from + 100_000);
      }
      Table table = keys.table();
      for (boolean spilled : new boolean[] {false, true}) {
        long best = Long.MAX_VALUE;
        long spilledBytes = 0;
        for (int round = 0; round < ROUNDS; round++) {
          long started = System.nanoTime();
          TableKeyIndex index =
              TableKeyIndex.build(table, table.currentSnapshot(), KeyTable.KEY, limits(spilled));
          best = Math.min(best, System.nanoTime() - started);
          assertThat(index.keys()).isEqualTo(n);
          spilledBytes = index.spilledBytes();
          index.release();
        }
        log.info(
            "KEY INDEX rebuilt from 10 Parquet files of 100,000 long keys {}: {} s per million"
                + " keys ({} bytes mapped)",
            spilled ? "spilled" : "on the heap",
            String.format("%.2f", best / 1e9 / (n / 1e6)),
            spilledBytes);
      }
    }
  }

  private KeyIndexLimits limits(boolean spilled) {
    return spilled
        ? new KeyIndexLimits(1, 8L << 30, spillDir)
        : new KeyIndexLimits(Long.MAX_VALUE, 0, spillDir);
  }

  private void measure(String what, int n, byte[][] keys) {
    for (boolean spilled : new boolean[] {false, true}) {
      KeyIndexLimits limits = limits(spilled);
      long bestFill = Long.MAX_VALUE;
      long bestFillCpu = Long.MAX_VALUE;
      long bestFind = Long.MAX_VALUE;
      long bytes = 0;
      long spilledBytes = 0;
      for (int round = 0; round < ROUNDS; round++) {
        long started = System.nanoTime();
        long startedCpu = THREADS.getCurrentThreadCpuTime();
        KeyIndex index = new KeyIndex(keys == null, n, limits);
        for (int k = 0; k < n; k++) {
          if (keys == null) {
            index.put(k * 0x9E3779B97F4A7C15L, k & 63, k);
          } else {
            index.put(keys[k], k & 63, k);
          }
        }
        long filled = System.nanoTime();
        long filledCpu = THREADS.getCurrentThreadCpuTime();
        long positions = 0;
        for (int k = 0; k < n; k++) {
          int slot = keys == null ? index.find(k * 0x9E3779B97F4A7C15L) : index.find(keys[k]);
          positions += index.position(slot);
        }
        long found = System.nanoTime();
        assertThat(positions).isEqualTo((long) n * (n - 1) / 2);
        bestFill = Math.min(bestFill, filled - started);
        bestFillCpu = Math.min(bestFillCpu, filledCpu - startedCpu);
        bestFind = Math.min(bestFind, found - filled);
        bytes = index.bytes();
        spilledBytes = index.spilledBytes();
        index.release();
      }
      log.info(
          "KEY INDEX {} {}: {} bytes per key ({} bytes, {} of them mapped), filled in {} ms per"
              + " million keys ({} ms of CPU), {} ns per lookup",
          what,
          spilled ? "spilled" : "on the heap",
          String.format("%.1f", bytes / (double) n),
          bytes,
          spilledBytes,
          String.format("%.0f", bestFill / 1e6 / (n / 1e6)),
          String.format("%.0f", bestFillCpu / 1e6 / (n / 1e6)),
          String.format("%.0f", bestFind / (double) n));
    }
  }
}
