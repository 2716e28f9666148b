package io.sluice.bench.maintenance;

import io.sluice.lake.IcebergRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures what the table's files cost a reader: a full scan of its current snapshot with Iceberg's
 * generic reader ({@link IcebergRows#read}, deletes applied) against the same rows written
 * compacted, i.e. into a fresh table of the same catalog, schema and properties holding exactly the
 * scanned rows in one data file without deletes (unpartitioned), dropped again afterwards. Each
 * side is scanned once untimed (the first scan of the table also collects its rows), then {@value
 * #TIMED_SCANS} times or more, in turns with the other ({@link #cheapestScans}); the cheapest scan
 * of each side counts.
 *
 * <p>A scan's cost is the CPU time it spends ({@link ReadCpu}: the reading thread and Iceberg's
 * planning pools); its wall time is kept beside it. The sampler shares two cores and one heap with
 * the sink and its maintenance, and their work lands on a wall-clock scan at random: scanning a
 * table of one data file without deletes read anywhere from 0.26x to 1.70x its compacted copy by
 * the wall clock in the runs of 2026-12-02, though the two hold the same rows the same way. CPU
 * time alone still read 0.32x once (a median of 3 early in the run, the copy's scans not compiled
 * yet, or the sink's work on Iceberg's pools counted to them): the cheapest of several scans in
 * turns is what the files cost once the reader is warm and alone, for both sides alike.
 */
public final class ScanSampler {
  static final int TIMED_SCANS = 5;
  static final int MAX_TIMED_SCANS = 51;
  static final Duration MIN_TIMED = Duration.ofMillis(200);
  static final int ATTEMPTS = 3;
  private static final Logger log = LoggerFactory.getLogger(ScanSampler.class);

  private final Catalog catalog;
  private final TableIdentifier table;
  private final TableIdentifier compacted;

  /**
   * @param compacted the name of the compacted copy; a table of that name is replaced
   */
  public ScanSampler(Catalog catalog, TableIdentifier table, TableIdentifier compacted) {
    this.catalog = catalog;
    this.table = table;
    this.compacted = compacted;
  }

  /**
   * Samples the table's current snapshot, up to {@value #ATTEMPTS} times: the SQLite catalog can be
   * busy with a commit of the sink's.
   *
   * @return the sample; empty while the table has no snapshot
   * @throws IllegalStateException when every attempt failed
   */
  public Optional<Sample> sample(int commits, long elapsedMs) {
    for (int attempt = 1; ; attempt++) {
      try {
        return Optional.ofNullable(sampleOnce(commits, elapsedMs));
      } catch (RuntimeException e) {
        if (attempt == ATTEMPTS) {
          throw new IllegalStateException(
              "sampling " + table + " failed " + attempt + " times in a row", e);
        }
        log.warn("Sampling {} failed, trying again: {}", table, e.toString());
      }
    }
  }

  private Sample sampleOnce(int commits, long elapsedMs) {
    if (!catalog.tableExists(table)) {
      return null;
    }
    Table source = catalog.loadTable(table);
    Snapshot snapshot = source.currentSnapshot();
    if (snapshot == null) {
      return null;
    }
    List<Record> rows = new ArrayList<>();
    // A loaded table is not refreshed: every read below sees this snapshot.
    IcebergRows.read(source, 0, r -> rows.add(r.copy()));
    Table copy = writeCompacted(source, rows);
    try {
      IcebergRows.read(copy, 0, r -> {});
      Scans scans = cheapestScans(source, copy);
      long compactedBytes =
          Long.parseLong(
              copy.currentSnapshot()
                  .summary()
                  .getOrDefault(SnapshotSummary.TOTAL_FILE_SIZE_PROP, "0"));
      return Sample.of(
          commits,
          elapsedMs,
          snapshot.snapshotId(),
          rows.size(),
          TableFiles.of(source, snapshot),
          scans.tableCpuMs(),
          scans.copyCpuMs(),
          compactedBytes,
          scans.tableWallMs(),
          scans.copyWallMs());
    } finally {
      catalog.dropTable(compacted, true);
    }
  }

  /** A fresh table holding {@code rows} in one data file. */
  Table writeCompacted(Table source, List<Record> rows) {
    if (catalog.tableExists(compacted)) {
      catalog.dropTable(compacted, true);
    }
    Map<String, String> properties = new HashMap<>(source.properties());
    properties.put(TableProperties.FORMAT_VERSION, String.valueOf(TableUtil.formatVersion(source)));
    Table copy =
        catalog.createTable(compacted, source.schema(), PartitionSpec.unpartitioned(), properties);
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(copy)
            .dataSchema(copy.schema())
            .dataFileFormat(FileFormat.PARQUET)
            .build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(copy, 1, 1).format(FileFormat.PARQUET).build();
    DataWriter<Record> writer = writers.newDataWriter(files.newOutputFile(), copy.spec(), null);
    try (writer) {
      for (Record row : rows) {
        writer.write(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the compacted copy " + compacted, e);
    }
    DataFile file = writer.toDataFile();
    copy.newAppend().appendFile(file).commit();
    return copy;
  }

  /** The cheapest timed scans of both sides, CPU and wall time, in ms. */
  record Scans(double tableCpuMs, double copyCpuMs, double tableWallMs, double copyWallMs) {}

  /**
   * The cheapest scans of {@code table} and {@code copy}, scanned in turns (table, copy, table,
   * ...) so that both see the same moments of the machine: {@value #TIMED_SCANS} scans each, and
   * each side more while its own CPU time adds up to less than {@link #MIN_TIMED}, at most {@value
   * #MAX_TIMED_SCANS}. A scan of a few milliseconds (the compacted copy) is thrown off by one busy
   * moment, and it is cheap to repeat; a costly table is not repeated for its sake, since every
   * scan takes CPU from the sink that the benchmark measures.
   */
  private static Scans cheapestScans(Table table, Table copy) {
    Side tableSide = new Side(table);
    Side copySide = new Side(copy);
    while (tableSide.wantsMore() || copySide.wantsMore()) {
      if (tableSide.wantsMore()) {
        tableSide.scan();
      }
      if (copySide.wantsMore()) {
        copySide.scan();
      }
    }
    return new Scans(
        tableSide.leastCpuMs, copySide.leastCpuMs, tableSide.leastWallMs, copySide.leastWallMs);
  }

  /** One side's timed scans: how many, their CPU time in all, the cheapest of each clock. */
  private static final class Side {
    private final Table table;
    private int scans;
    private long cpuNanos;
    private double leastCpuMs = Double.MAX_VALUE;
    private double leastWallMs = Double.MAX_VALUE;

    Side(Table table) {
      this.table = table;
    }

    boolean wantsMore() {
      return scans < TIMED_SCANS || (cpuNanos < MIN_TIMED.toNanos() && scans < MAX_TIMED_SCANS);
    }

    void scan() {
      long started = System.nanoTime();
      long cpu = ReadCpu.of(() -> IcebergRows.read(table, 0, r -> {}));
      leastWallMs = Math.min(leastWallMs, (System.nanoTime() - started) / 1e6);
      leastCpuMs = Math.min(leastCpuMs, cpu / 1e6);
      cpuNanos += cpu;
      scans++;
    }
  }
}
