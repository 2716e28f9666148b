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
 * rows), then {@value #TIMED_SCANS} times or more ({@link #medianScanMs}); the median counts.
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
    double scanMs = medianScanMs(source);
    Table copy = writeCompacted(source, rows);
    try {
      IcebergRows.read(copy, 0, r -> {});
      double compactedMs = medianScanMs(copy);
      return Sample.of(
          commits,
          elapsedMs,
          snapshot.snapshotId(),
          rows.size(),
          TableFiles.of(source, snapshot),
          scanMs,
          compactedMs);
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
   * The median of {@value #TIMED_SCANS} scans, or of more while they add up to less than {@link
   * #MIN_TIMED}: a scan of a few milliseconds (the compacted copy) is thrown off by one collection
   * or one busy moment of the machine, and it is cheap to repeat.
   */
  private static double medianScanMs(Table table) {
    List<Double> ms = new ArrayList<>();
    long total = 0;
    while (ms.size() < TIMED_SCANS
        || (total < MIN_TIMED.toNanos() && ms.size() < MAX_TIMED_SCANS)) {
      long started = System.nanoTime();
      IcebergRows.read(table, 0, r -> {});
      long took = System.nanoTime() - started;
      total += took;
      ms.add(took / 1e6);
    }
    Collections.sort(ms);
    return ms.get(ms.size() / 2);
  }
}
