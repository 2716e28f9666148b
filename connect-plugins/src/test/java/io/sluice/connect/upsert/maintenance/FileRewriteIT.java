package io.sluice.connect.upsert.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.config.MaintenanceSettings;
import io.sluice.connect.upsert.metrics.SinkMeters;
import io.sluice.connect.upsert.write.RowLineage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File rewrites ({@link FileRewrite}, planned by {@link RewritePlanner}) on real JdbcCatalog tables
 * of format v2 and v3 whose deletes are written with Iceberg's own writers as the sink's write path
 * does: a DV per data file (v3, merged at each commit) or file-scoped position deletes (v2), plus
 * an equality delete (the fallback) and, on v2, a position delete naming two files.
 *
 * <p>Partition region=eu holds A (ids 0-99, 40 deleted by position: dirty), B (100-199, 5 deleted:
 * below the fraction), C (200-299, no delete naming it alone); region=us holds U (300-399, clean).
 */
class FileRewriteIT {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "customer", Types.StringType.get()),
              Types.NestedField.required(3, "region", Types.StringType.get())),
          Set.of(1));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("region").build();
  // Partition-wide deletes: 3 (eu has 1 on v3, 2 on v2); no small-file merges.
  private static final MaintenanceSettings SETTINGS =
      new MaintenanceSettings(
          3, 100, 0.2, 64L << 20, 2, 0, 604_800_000, 3_600_000, 60_000, 3, 1_000);

  @TempDir Path dir;
  private Lake lake;
  private Table table;
  private int fileCount;
  private DataFile a;
  private DataFile b;
  private DataFile c;
  private DataFile u;
  private DeleteFile dvOfA;

  @BeforeEach
  void open() {
    lake = new Lake(dir);
    ((SupportsNamespaces) lake.catalog()).createNamespace(Namespace.of("cdc_lab"));
  }

  @AfterEach
  void close() throws IOException {
    lake.close();
  }

  @Test
  void onV2OnlyTheDirtyFileIsRewrittenAndItsPositionDeletesGo() throws IOException {
    passRewritesOnlyTheDirtyFile(2);
  }

  @Test
  void onV3OnlyTheDirtyFileIsRewrittenItsDvGoesAndRowIdsStay() throws IOException {
    passRewritesOnlyTheDirtyFile(3);
  }

  @Test
  void onV2APositionDeleteOfASelectedFileCommittedMeanwhileIsCarriedOver() throws IOException {
    concurrentDeleteOfASelectedFileIsCarriedOver(2);
  }

  @Test
  void onV3ADvOfASelectedFileCommittedMeanwhileIsCarriedOver() throws IOException {
    concurrentDeleteOfASelectedFileIsCarriedOver(3);
  }

  @Test
  void aSelectedFileRewrittenMeanwhileAbandonsTheRewrite() throws IOException {
    build(3);
    Snapshot base = table.currentSnapshot();
    FileBin bin = plannedBin(base);
    // Another engine's compaction of A (its live rows at the current snapshot, a copy of them).
    DataFile copy = dataFile(40, 100, "eu");
    Snapshot now = table.currentSnapshot();
    table
        .newRewrite()
        .validateFromSnapshot(now.snapshotId())
        .dataSequenceNumber(now.sequenceNumber())
        .deleteFile(a)
        .deleteFile(dvOfA)
        .addFile(copy)
        .commit();
    long compacted = table.currentSnapshot().snapshotId();
    List<String> before = rows();

    RewriteCommit.Result result = fileRewrite().rewrite(table, base, bin);

    assertThat(result).isEqualTo(RewriteCommit.Result.ABANDONED);
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(compacted);
    assertThat(rows()).isEqualTo(before);
    assertThat(maintenanceFiles()).isEmpty();
  }

  @Test
  void anEqualityDeleteCommittedMeanwhileStillAppliesToTheRewrittenRows() throws IOException {
    build(3);
    Snapshot base = table.currentSnapshot();
    FileBin bin = plannedBin(base);
    table.newRowDelta().addDeletes(equalityDeletes(60, 150)).commit();
    List<String> before = rows();

    RewriteCommit.Result result = fileRewrite().rewrite(table, base, bin);

    assertThat(result).isEqualTo(RewriteCommit.Result.COMMITTED);
    assertThat(rows()).isEqualTo(before).noneMatch(r -> r.startsWith("id=60,"));
  }

  private void passRewritesOnlyTheDirtyFile(int version) throws IOException {
    build(version);
    List<String> before = rows();
    long sequence = table.currentSnapshot().sequenceNumber();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();

    new TableMaintenance(SETTINGS, 0, () -> false, new ReentrantLock())
        .run(table, new SinkMeters(registry).table("c", "t").maintenance(), false, 0);

    table.refresh();
    assertThat(rows()).isEqualTo(before);
    // The live files, from the manifests (a scan would not show a delete file left dangling).
    List<DataFile> data = liveFiles().dataFiles();
    List<DeleteFile> deletes = liveFiles().deleteFiles();
    Set<String> kept = Set.of(b.location(), c.location(), u.location());
    assertThat(data).extracting(DataFile::location).containsAll(kept).hasSize(4);
    DataFile rewritten =
        data.stream().filter(f -> !kept.contains(f.location())).findFirst().orElseThrow();
    assertThat(rewritten.dataSequenceNumber()).isEqualTo(sequence);
    // A's ids 40-99 less 50 (the equality delete) and, on v2, 60 (the two-file position delete).
    assertThat(rewritten.recordCount()).isEqualTo(version == 2 ? 58 : 59);
    // A's position deletes are gone; B's, the equality delete and (v2) the two-file one stay.
    assertThat(deletes)
        .noneMatch(d -> a.location().equals(FileGroup.referencedDataFile(d)))
        .anyMatch(d -> b.location().equals(FileGroup.referencedDataFile(d)))
        .anyMatch(d -> d.content() == FileContent.EQUALITY_DELETES);
    if (version == 2) {
      assertThat(deletes)
          .anyMatch(
              d ->
                  FileGroup.referencedDataFile(d) == null
                      && d.content() == FileContent.POSITION_DELETES);
    }
    assertThat(
            registry
                .get(SinkMeters.MAINTENANCE_REWRITES)
                .tag("result", "success")
                .counter()
                .count())
        .isEqualTo(1);
  }

  /**
   * The sink deletes id 70 of A (position 70) after the rewrite read A: the rewrite, prepared
   * against the new snapshot, deletes 70 by position in its new file and replaces A's deletes.
   */
  private void concurrentDeleteOfASelectedFileIsCarriedOver(int version) throws IOException {
    build(version);
    Snapshot base = table.currentSnapshot();
    FileBin bin = plannedBin(base);
    List<String> beforeRewrite = rows();
    AtomicBoolean sinkCommitted = new AtomicBoolean();
    // The sink commits while the rewrite waits for its turn to commit, after it wrote its files.
    Lock turn =
        new ReentrantLock() {
          @Override
          public void lock() {
            if (sinkCommitted.compareAndSet(false, true)) {
              deleteId70(version, base);
            }
            super.lock();
          }
        };

    RewriteCommit.Result result =
        new FileRewrite(0, SETTINGS.targetFileSizeBytes(), () -> false, new RewriteCommit(turn))
            .rewrite(table, base, bin);

    assertThat(result).isEqualTo(RewriteCommit.Result.COMMITTED);
    List<String> expected = beforeRewrite.stream().filter(r -> !r.startsWith("id=70,")).toList();
    assertThat(expected).hasSize(beforeRewrite.size() - 1);
    assertThat(rows()).isEqualTo(expected);
    List<DataFile> data = liveFiles().dataFiles();
    List<DeleteFile> deletes = liveFiles().deleteFiles();
    Set<String> kept = Set.of(b.location(), c.location(), u.location());
    DataFile rewritten =
        data.stream().filter(f -> !kept.contains(f.location())).findFirst().orElseThrow();
    assertThat(data).extracting(DataFile::location).doesNotContain(a.location()).hasSize(4);
    // No delete names A any more; the one carried over names the new file and deletes one row.
    assertThat(deletes).noneMatch(d -> a.location().equals(FileGroup.referencedDataFile(d)));
    assertThat(deletes)
        .filteredOn(d -> rewritten.location().equals(FileGroup.referencedDataFile(d)))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.recordCount()).isEqualTo(1);
              assertThat(d.format())
                  .isEqualTo(version >= 3 ? FileFormat.PUFFIN : FileFormat.PARQUET);
            });
  }

  /** As the sink deletes a key of A: v3 merges A's DV into a new one, v2 adds a position delete. */
  private void deleteId70(int version, Snapshot base) {
    try {
      RowDelta delta = table.newRowDelta().validateFromSnapshot(base.snapshotId());
      if (version >= 3) {
        List<Position> merged = new ArrayList<>(positions(a, 0, 40));
        merged.addAll(positions(a, 70, 71));
        delta.removeDeletes(dvOfA);
        dv(merged).forEach(delta::addDeletes);
      } else {
        delta.addDeletes(positionDeletes(positions(a, 70, 71)));
      }
      delta.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The live files of the current snapshot, from the manifests. */
  private FileGroup liveFiles() {
    FileGroup all = new FileGroup(0, null, "");
    TableInventory.read(table, table.currentSnapshot(), true)
        .groups()
        .forEach(
            g -> {
              all.dataFiles().addAll(g.dataFiles());
              all.deleteFiles().addAll(g.deleteFiles());
            });
    return all;
  }

  private FileRewrite fileRewrite() {
    return new FileRewrite(
        0, SETTINGS.targetFileSizeBytes(), () -> false, new RewriteCommit(new ReentrantLock()));
  }

  /** The one bin planned at {@code base}: A alone. */
  private FileBin plannedBin(Snapshot base) {
    RewritePlanner.Plan plan =
        new RewritePlanner(SETTINGS).plan(TableInventory.read(table, base, true).groups());
    assertThat(plan.partitions()).isEmpty();
    assertThat(plan.bins())
        .singleElement()
        .satisfies(b -> assertThat(b.locations()).containsExactly(a.location()));
    return plan.bins().get(0);
  }

  /** The table of the class comment, its deletes in several commits as the sink would. */
  private void build(int version) throws IOException {
    table =
        lake.catalog()
            .createTable(
                TableIdentifier.of("cdc_lab", "files_v" + version),
                SCHEMA,
                SPEC,
                Map.of(TableProperties.FORMAT_VERSION, String.valueOf(version)));
    a = dataFile(0, 100, "eu");
    b = dataFile(100, 200, "eu");
    c = dataFile(200, 300, "eu");
    u = dataFile(300, 400, "us");
    table.newAppend().appendFile(a).appendFile(b).appendFile(c).appendFile(u).commit();
    if (version >= 3) {
      DeleteFile first = dv(positions(a, 0, 30)).get(0);
      table.newRowDelta().addDeletes(first).commit();
      dvOfA = dv(positions(a, 0, 40)).get(0);
      RowDelta merge =
          table
              .newRowDelta()
              .validateFromSnapshot(table.currentSnapshot().snapshotId())
              .removeDeletes(first)
              .addDeletes(dvOfA);
      dv(positions(b, 0, 5)).forEach(merge::addDeletes);
      merge.commit();
    } else {
      table.newRowDelta().addDeletes(positionDeletes(positions(a, 0, 20))).commit();
      List<Position> twoFiles = new ArrayList<>(positions(a, 60, 61));
      twoFiles.addAll(positions(c, 10, 11));
      table
          .newRowDelta()
          .addDeletes(positionDeletes(positions(a, 20, 40)))
          .addDeletes(positionDeletes(positions(b, 0, 5)))
          // Names two files: partition-wide, not A's alone.
          .addDeletes(positionDeletes(twoFiles))
          .commit();
    }
    table.newRowDelta().addDeletes(equalityDeletes(50, 250)).commit();
  }

  private DataFile dataFile(long from, long to, String region) throws IOException {
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build();
    StructLike partition = partition(region);
    DataWriter<Record> writer =
        writers.newDataWriter(files().newOutputFile(SPEC, partition), SPEC, partition);
    try (writer) {
      for (long id = from; id < to; id++) {
        writer.write(row(id, region));
      }
    }
    return writer.toDataFile();
  }

  /** The DV of each file of {@code positions}. */
  private List<DeleteFile> dv(List<Position> positions) throws IOException {
    BaseDVFileWriter writer =
        new BaseDVFileWriter(
            OutputFileFactory.builderFor(table, 1, ++fileCount).format(FileFormat.PUFFIN).build(),
            path -> null);
    try (writer) {
      for (Position p : positions) {
        writer.delete(p.file().location(), p.pos(), SPEC, p.file().partition());
      }
    }
    return writer.result().deleteFiles();
  }

  /** A row of a data file. */
  private record Position(DataFile file, long pos) {}

  private static List<Position> positions(DataFile file, long from, long to) {
    List<Position> positions = new ArrayList<>();
    for (long pos = from; pos < to; pos++) {
      positions.add(new Position(file, pos));
    }
    return positions;
  }

  /** A position-delete file of {@code positions}, sorted by file and position as the spec asks. */
  private DeleteFile positionDeletes(List<Position> positions) throws IOException {
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table).deleteFileFormat(FileFormat.PARQUET).build();
    StructLike partition = partition("eu");
    PositionDeleteWriter<Record> writer =
        writers.newPositionDeleteWriter(files().newOutputFile(SPEC, partition), SPEC, partition);
    PositionDelete<Record> delete = PositionDelete.create();
    try (writer) {
      for (Position p :
          positions.stream()
              .sorted(
                  Comparator.comparing((Position p) -> p.file().location())
                      .thenComparingLong(Position::pos))
              .toList()) {
        writer.write(delete.set(p.file().location(), p.pos()));
      }
    }
    return writer.toDeleteFile();
  }

  private DeleteFile equalityDeletes(long... ids) throws IOException {
    Schema keys = SCHEMA.select("id");
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table)
            .deleteFileFormat(FileFormat.PARQUET)
            .equalityFieldIds(new int[] {1})
            .equalityDeleteRowSchema(keys)
            .build();
    StructLike partition = partition("eu");
    EqualityDeleteWriter<Record> writer =
        writers.newEqualityDeleteWriter(files().newOutputFile(SPEC, partition), SPEC, partition);
    try (writer) {
      for (long id : ids) {
        GenericRecord key = GenericRecord.create(keys);
        key.setField("id", id);
        writer.write(key);
      }
    }
    return writer.toDeleteFile();
  }

  private OutputFileFactory files() {
    return OutputFileFactory.builderFor(table, 1, ++fileCount).format(FileFormat.PARQUET).build();
  }

  private static StructLike partition(String region) {
    PartitionKey key = new PartitionKey(SPEC, SCHEMA);
    key.partition(row(0, region));
    return key.copy();
  }

  private static Record row(long id, String region) {
    GenericRecord row = GenericRecord.create(SCHEMA);
    row.setField("id", id);
    row.setField("customer", "c" + id);
    row.setField("region", region);
    return row;
  }

  /** Every row as Iceberg's reader returns it, with its lineage on v3, sorted by id. */
  private List<String> rows() {
    table.refresh();
    Schema read = RowLineage.carried(table, table.schema());
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).project(read).build()) {
      List<String> rows = new ArrayList<>();
      for (Record r : records) {
        rows.add(
            read.columns().stream()
                .map(f -> f.name() + "=" + r.getField(f.name()))
                .collect(Collectors.joining(",")));
      }
      rows.sort(Comparator.comparingLong(r -> Long.parseLong(r.substring(3, r.indexOf(',')))));
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Files a rewrite wrote (their names carry the operation id), committed or not. */
  private List<Path> maintenanceFiles() throws IOException {
    Path data = Path.of(URI.create(table.location() + "/data").getPath());
    try (Stream<Path> files = Files.walk(data)) {
      return files.filter(f -> f.getFileName().toString().contains("maintenance-")).toList();
    }
  }
}
