package io.sluice.lake;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ScanRows} against Iceberg's own generic reader, over 16 seeded random tables: v2 and v3,
 * unpartitioned or partitioned and then evolved, with equality deletes, file- and partition-scoped
 * position deletes (v2) or deletion vectors (v3); read whole, projected, filtered (a residual on a
 * data column and a partition filter) and at an older snapshot.
 */
class ScanRowsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "cat", Types.StringType.get()),
          Types.NestedField.optional(3, "v", Types.IntegerType.get()));
  private static final String[] CATS = {"a", "b", "c"};

  /** Threads that opened a file of the table, by name. */
  public static final class ThreadsIO extends InMemoryFileIO {
    static final Set<String> opened = ConcurrentHashMap.newKeySet();

    @Override
    public InputFile newInputFile(String location) {
      opened.add(Thread.currentThread().getName());
      return super.newInputFile(location);
    }

    @Override
    public InputFile newInputFile(String location, long length) {
      opened.add(Thread.currentThread().getName());
      return super.newInputFile(location, length);
    }
  }

  @TempDir Path warehouse;

  @Test
  void everySeededTableReadsAsIcebergsGenericReaderReadsIt() throws IOException {
    for (long seed = 0; seed < 16; seed++) {
      Random random = new Random(seed);
      // Files in memory (a local Hadoop file system forks a process per permission change).
      JdbcCatalog catalog = new JdbcCatalog();
      catalog.initialize(
          "scan-rows",
          Map.of(
              "uri",
              "jdbc:sqlite:" + warehouse.resolve("catalog-" + seed + ".db"),
              "jdbc.schema-version",
              "V1",
              "warehouse",
              "memory://scan-rows-" + seed,
              "io-impl",
              ThreadsIO.class.getName()));
      catalog.createNamespace(Namespace.of("db"));
      int version = 2 + (int) (seed % 2);
      PartitionSpec spec =
          switch (random.nextInt(3)) {
            case 0 -> PartitionSpec.unpartitioned();
            case 1 -> PartitionSpec.builderFor(SCHEMA).bucket("id", 4).build();
            default -> PartitionSpec.builderFor(SCHEMA).identity("cat").build();
          };
      Table table =
          catalog.createTable(
              TableIdentifier.of("db", "t" + seed),
              SCHEMA,
              spec,
              Map.of(TableProperties.FORMAT_VERSION, String.valueOf(version)));
      long nextId = 0;
      Long older = null;
      for (int round = 0; round < 5; round++) {
        if (round == 3 && random.nextBoolean()) {
          table.updateSpec().addField(Expressions.bucket("id", 3)).commit();
        }
        nextId = appendRows(table, random, nextId);
        deleteSome(table, random, nextId);
        if (round == 2) {
          older = table.currentSnapshot().snapshotId();
        }
      }
      String what = "seed " + seed + " (v" + version + ", " + table.spec() + ")";
      long cut = nextId / 2;
      compare(what + " whole", table.newScan());
      compare(what + " projected", table.newScan().select("id", "v"));
      compare(what + " id < " + cut, table.newScan().filter(Expressions.lessThan("id", cut)));
      compare(what + " cat = b", table.newScan().filter(Expressions.equal("cat", "b")));
      compare(what + " at an older snapshot", table.newScan().useSnapshot(older));
      ThreadsIO.opened.clear();
      read(ScanRows.read(table.newScan()));
      assertThat(ThreadsIO.opened)
          .as("threads that opened a file while ScanRows read " + what)
          .containsExactly(Thread.currentThread().getName());
      catalog.close();
    }
  }

  private static void compare(String what, TableScan scan) {
    Map<List<Object>, Integer> expected = read(genericRead(scan));
    Map<List<Object>, Integer> actual = read(ScanRows.read(scan));
    assertThat(actual).as(what).isEqualTo(expected);
    assertThat(expected).as(what + ": a read that finds nothing shows nothing").isNotEmpty();
  }

  private static CloseableIterable<Record> genericRead(TableScan scan) {
    var builder = IcebergGenerics.read(scan.table()).select(names(scan.schema()));
    if (scan.snapshot() != null) {
      builder = builder.useSnapshot(scan.snapshot().snapshotId());
    }
    return builder.where(scan.filter()).build();
  }

  private static String[] names(Schema schema) {
    return schema.columns().stream().map(Types.NestedField::name).toArray(String[]::new);
  }

  /** Each row's values (as the record's own struct has them), counted. */
  private static Map<List<Object>, Integer> read(CloseableIterable<Record> rows) {
    Map<List<Object>, Integer> counted = new HashMap<>();
    try (rows) {
      for (Record row : rows) {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < row.size(); i++) {
          values.add(row.struct().fields().get(i).name() + "=" + row.get(i));
        }
        counted.merge(values, 1, Integer::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return counted;
  }

  private static long appendRows(Table table, Random random, long nextId) {
    Map<StructLike, List<Record>> byPartition = new HashMap<>();
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    InternalRecordWrapper wrapper = new InternalRecordWrapper(table.schema().asStruct());
    int n = 20 + random.nextInt(40);
    for (int i = 0; i < n; i++) {
      Record row = GenericRecord.create(table.schema());
      row.setField("id", nextId++);
      row.setField("cat", CATS[random.nextInt(CATS.length)]);
      row.setField("v", random.nextInt(1000));
      key.partition(wrapper.wrap(row));
      byPartition.computeIfAbsent(key.copy(), k -> new ArrayList<>()).add(row);
    }
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, random.nextInt(1000))
            .format(FileFormat.PARQUET)
            .build();
    var append = table.newAppend();
    byPartition.forEach(
        (partition, rows) -> {
          StructLike p = table.spec().isUnpartitioned() ? null : partition;
          DataWriter<Record> writer =
              writers.newDataWriter(files.newOutputFile(table.spec(), p), table.spec(), p);
          try (writer) {
            rows.forEach(writer::write);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          append.appendFile(writer.toDataFile());
        });
    append.scanManifestsWith(SameThreadExecutor.INSTANCE).commit();
    return nextId;
  }

  /** Deletes some live rows: by equality on id, and by position (files or DVs). */
  private static void deleteSome(Table table, Random random, long nextId) {
    List<Located> live = new ArrayList<>();
    Map<String, DeleteFile> dvOf = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks = ScanRows.plan(table.newScan())) {
      for (FileScanTask task : tasks) {
        task.deletes().stream()
            .filter(d -> d.format() == FileFormat.PUFFIN)
            .forEach(d -> dvOf.put(task.file().location(), d));
        for (long pos = 0; pos < task.file().recordCount(); pos++) {
          live.add(new Located(task.file(), pos));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (live.isEmpty()) {
      return;
    }
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 2, random.nextInt(1000))
            .format(FileFormat.PARQUET)
            .build();
    RowDelta delta = table.newRowDelta().validateFromSnapshot(table.currentSnapshot().snapshotId());
    // Equality deletes of a few ids, in the current spec's unpartitioned form when it has none.
    Schema idOnly = table.schema().select("id");
    GenericFileWriterFactory eqWriters =
        new GenericFileWriterFactory.Builder(table)
            .deleteFileFormat(FileFormat.PARQUET)
            .equalityFieldIds(new int[] {1})
            .equalityDeleteRowSchema(idOnly)
            .build();
    if (table.spec().isUnpartitioned()) {
      EqualityDeleteWriter<Record> eq =
          eqWriters.newEqualityDeleteWriter(files.newOutputFile(), table.spec(), null);
      try (eq) {
        for (int i = 0; i < 3; i++) {
          Record k = GenericRecord.create(idOnly);
          k.setField("id", (long) random.nextInt((int) Math.max(1, nextId)));
          eq.write(k);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      delta.addDeletes(eq.toDeleteFile());
    }
    // Position deletes of rows picked at random.
    List<Located> picked = new ArrayList<>();
    for (int i = 0; i < 1 + live.size() / 10; i++) {
      picked.add(live.get(random.nextInt(live.size())));
    }
    if (org.apache.iceberg.TableUtil.formatVersion(table) >= 3) {
      // A file's new DV holds its previous one, which the commit replaces.
      BaseDeleteLoader loader = new BaseDeleteLoader(f -> table.io().newInputFile(f.location()));
      Function<String, PositionDeleteIndex> previous =
          path ->
              dvOf.containsKey(path)
                  ? loader.loadPositionDeletes(List.of(dvOf.get(path)), path)
                  : null;
      BaseDVFileWriter dvs = new BaseDVFileWriter(files, previous);
      picked.stream()
          .distinct()
          .forEach(
              l ->
                  dvs.delete(
                      l.file().location(),
                      l.pos(),
                      table.specs().get(l.file().specId()),
                      l.file().partition()));
      try {
        dvs.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      dvs.result().deleteFiles().forEach(delta::addDeletes);
      dvs.result().rewrittenDeleteFiles().forEach(delta::removeDeletes);
    } else {
      GenericFileWriterFactory posWriters =
          new GenericFileWriterFactory.Builder(table).deleteFileFormat(FileFormat.PARQUET).build();
      Map<String, List<Located>> byPartition = new HashMap<>();
      picked.stream()
          .distinct()
          .sorted(
              java.util.Comparator.comparing((Located l) -> l.file().location())
                  .thenComparingLong(Located::pos))
          .forEach(
              l ->
                  byPartition
                      .computeIfAbsent(
                          l.file().specId() + "/" + l.file().partition(), k -> new ArrayList<>())
                      .add(l));
      for (List<Located> group : byPartition.values()) {
        DataFile first = group.get(0).file();
        PartitionSpec spec = table.specs().get(first.specId());
        StructLike partition = spec.isUnpartitioned() ? null : first.partition();
        // One file per partition: scoped to the partition when it covers several data files.
        PositionDeleteWriter<Record> writer =
            posWriters.newPositionDeleteWriter(
                files.newOutputFile(spec, partition), spec, partition);
        PositionDelete<Record> delete = PositionDelete.create();
        try (writer) {
          group.forEach(l -> writer.write(delete.set(l.file().location(), l.pos())));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        delta.addDeletes(writer.toDeleteFile());
      }
    }
    delta.scanManifestsWith(SameThreadExecutor.INSTANCE).commit();
  }

  private record Located(DataFile file, long pos) {}
}
