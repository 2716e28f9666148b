package io.sluice.bench.maintenance;

import io.sluice.lake.IcebergRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
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
 * Measures what the table's files cost a reader: the full-scan time of its current snapshot with
 * Iceberg's generic reader ({@link IcebergRows#read}, deletes applied) against the same rows
 * written compacted, i.e. into a fresh table of the same catalog, schema and properties holding
 * exactly the scanned rows in one data file without deletes (unpartitioned), dropped again
 * afterwards. Each side is scanned once untimed (the first scan of the table also collects its
 * rows), then {@value #TIMED_SCANS} times or more, in turns with the other ({@link #medianScanMs});
 * the median counts.
 */
public final class ScanSampler {
  static final int TIMED_SCANS = 3;
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
      double[] medians = medianScanMs(source, copy);
      double scanMs = medians[0];
      double compactedMs = medians[1];
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
          scanMs,
          compactedMs,
          compactedBytes);
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

  /**
   * The median scan times of {@code table} and {@code copy}, scanned in turns (table, copy, table,
   * ...) so that both see the same moments of the machine: {@value #TIMED_SCANS} scans each, or
   * more while each side's add up to less than {@link #MIN_TIMED}, at most {@value
   * #MAX_TIMED_SCANS} each. A scan of a few milliseconds (the compacted copy) is thrown off by one
   * collection or one busy moment, and it is cheap to repeat.
   */
  private static double[] medianScanMs(Table table, Table copy) {
    List<Double> tableMs = new ArrayList<>();
    List<Double> copyMs = new ArrayList<>();
    long tableTotal = 0;
    long copyTotal = 0;
    while (tableMs.size() < TIMED_SCANS
        || (Math.min(tableTotal, copyTotal) < MIN_TIMED.toNanos()
            && tableMs.size() < MAX_TIMED_SCANS)) {
      long took = timedScan(table);
      tableTotal += took;
      tableMs.add(took / 1e6);
      took = timedScan(copy);
      copyTotal += took;
      copyMs.add(took / 1e6);
    }
    return new double[] {median(tableMs), median(copyMs)};
  }

  private static long timedScan(Table table) {
    long started = System.nanoTime();
    IcebergRows.read(table, 0, r -> {});
    return System.nanoTime() - started;
  }

  private static double median(List<Double> ms) {
    Collections.sort(ms);
    return ms.get(ms.size() / 2);
  }
}
