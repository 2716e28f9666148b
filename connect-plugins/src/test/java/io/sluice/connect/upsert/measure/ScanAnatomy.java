package io.sluice.connect.upsert.measure;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test: what one extra file, manifest or delete file (equality, position, DV) costs a full
 * scan of a 10,000-row table with Iceberg's generic reader, behind the merge at commit
 * (docs/design.md#table-maintenance). Figures are printed, never asserted. Run with {@code mvn -o
 * -pl connect-plugins -am test -Dtest=ScanAnatomy -Dsluice.measure=true
 * -Dsurefire.failIfNoSpecifiedTests=false}, optionally {@code
 * -Diceberg.scan.plan-in-worker-pool=false}.
 */
@EnabledIfSystemProperty(named = "sluice.measure", matches = "true")
class ScanAnatomy {
  static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "customer", Types.StringType.get()),
              Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
              Types.NestedField.optional(4, "status", Types.StringType.get()),
              Types.NestedField.optional(5, "version", Types.LongType.get())),
          java.util.Set.of(1));
  static final int KEYS = 10_000;

  @TempDir Path dir;
  int n;

  Table table(int version) {
    return new HadoopTables()
        .create(
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of("format-version", String.valueOf(version)),
            dir.resolve("t" + (n++)).toString());
  }

  Record row(long id, long v) {
    GenericRecord r = GenericRecord.create(SCHEMA);
    r.setField("id", id);
    r.setField("customer", "customer-" + (id % 977));
    r.setField("amount", new java.math.BigDecimal(id % 10000).movePointLeft(2));
    r.setField("status", v % 2 == 0 ? "NEW" : "PAID");
    r.setField("version", v);
    return r;
  }

  DataFile data(Table t, long from, long to, long v) throws IOException {
    var f = new GenericFileWriterFactory.Builder(t).dataFileFormat(FileFormat.PARQUET).build();
    var out = OutputFileFactory.builderFor(t, 1, n++).format(FileFormat.PARQUET).build();
    DataWriter<Record> w = f.newDataWriter(out.newOutputFile(), t.spec(), null);
    for (long i = from; i < to; i++) w.write(row(i, v));
    w.close();
    return w.toDataFile();
  }

  DeleteFile eq(Table t, long from, long to) throws IOException {
    Schema keys = SCHEMA.select("id");
    var f =
        new GenericFileWriterFactory.Builder(t)
            .deleteFileFormat(FileFormat.PARQUET)
            .equalityFieldIds(new int[] {1})
            .equalityDeleteRowSchema(keys)
            .build();
    var out = OutputFileFactory.builderFor(t, 1, n++).format(FileFormat.PARQUET).build();
    EqualityDeleteWriter<Record> w = f.newEqualityDeleteWriter(out.newOutputFile(), t.spec(), null);
    for (long i = from; i < to; i++) {
      GenericRecord k = GenericRecord.create(keys);
      k.setField("id", i);
      w.write(k);
    }
    w.close();
    return w.toDeleteFile();
  }

  DeleteFile pos(Table t, DataFile of, long from, long to) throws IOException {
    var f = new GenericFileWriterFactory.Builder(t).deleteFileFormat(FileFormat.PARQUET).build();
    var out = OutputFileFactory.builderFor(t, 1, n++).format(FileFormat.PARQUET).build();
    PositionDeleteWriter<Record> w = f.newPositionDeleteWriter(out.newOutputFile(), t.spec(), null);
    PositionDelete<Record> d = PositionDelete.create();
    for (long i = from; i < to; i++) w.write(d.set(of.location(), i));
    w.close();
    return w.toDeleteFile();
  }

  List<DeleteFile> dv(Table t, DataFile of, long from, long to) throws IOException {
    var out = OutputFileFactory.builderFor(t, 1, n++).format(FileFormat.PUFFIN).build();
    BaseDVFileWriter w = new BaseDVFileWriter(out, p -> null);
    for (long i = from; i < to; i++) w.delete(of.location(), i, t.spec(), null);
    w.close();
    return w.result().deleteFiles();
  }

  static double scan(Table t) throws IOException {
    for (int i = 0; i < 30; i++) once(t);
    List<Double> ms = new ArrayList<>();
    for (int i = 0; i < 31; i++) {
      long s = System.nanoTime();
      once(t);
      ms.add((System.nanoTime() - s) / 1e6);
    }
    ms.sort(null);
    return ms.get(15);
  }

  static long once(Table t) throws IOException {
    long c = 0;
    try (CloseableIterable<Record> rs = IcebergGenerics.read(t).build()) {
      for (Record r : rs) c++;
    }
    return c;
  }

  static double plan(Table t) throws IOException {
    List<Double> ms = new ArrayList<>();
    for (int i = 0; i < 51; i++) {
      long s = System.nanoTime();
      try (var tasks = t.newScan().planFiles()) {
        for (var x : tasks) {}
      }
      ms.add((System.nanoTime() - s) / 1e6);
    }
    ms.sort(null);
    return ms.get(25);
  }

  final java.util.LinkedHashMap<String, Table> tables = new java.util.LinkedHashMap<>();

  void report(String name, Table t) throws IOException {
    t.refresh();
    tables.put(name, t);
  }

  void measureAll() throws IOException {
    for (int round = 0; round < 10; round++) {
      for (Table t : tables.values()) {
        once(t);
      }
    }
    java.util.Map<String, List<Double>> ms = new java.util.LinkedHashMap<>();
    for (int round = 0; round < 60; round++) {
      for (var e : tables.entrySet()) {
        long s = System.nanoTime();
        once(e.getValue());
        ms.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add((System.nanoTime() - s) / 1e6);
      }
    }
    ms.forEach(
        (k, v) -> {
          v.sort(null);
          System.out.printf("ANATOMY %-48s scan p50 %7.2f ms p10 %7.2f%n", k, v.get(30), v.get(6));
        });
  }

  @Test
  void anatomy() throws IOException {
    for (int v : new int[] {2, 3}) {
      Table a = table(v);
      a.newAppend().appendFile(data(a, 0, KEYS, 0)).commit();
      report("v" + v + " compacted", a);

      Table b = table(v);
      b.newAppend().appendFile(data(b, 0, KEYS - 1000, 0)).commit();
      b.newAppend().appendFile(data(b, KEYS - 1000, KEYS, 0)).commit();
      report("v" + v + " 2 data files (2 manifests)", b);
      b.rewriteManifests().clusterBy(f -> 1).commit();
      report("v" + v + " 2 data files (1 manifest)", b);

      Table c = table(v);
      c.newAppend().appendFile(data(c, 0, KEYS, 0)).commit();
      c.newRowDelta().addRows(data(c, 0, 1000, 1)).addDeletes(eq(c, 0, 1000)).commit();
      report("v" + v + " +1k rows +eq delete 1k", c);

      Table d = table(v);
      DataFile base = data(d, 0, KEYS, 0);
      d.newAppend().appendFile(base).commit();
      var rd = d.newRowDelta().addRows(data(d, 0, 1000, 1));
      if (v == 2) rd.addDeletes(pos(d, base, 0, 1000));
      else dv(d, base, 0, 1000).forEach(rd::addDeletes);
      rd.commit();
      report("v" + v + " +1k rows +" + (v == 2 ? "pos delete" : "DV") + " 1k", d);
      for (String minMerge : new String[] {"100", "2"}) {
        Table m = table(v);
        m.updateProperties().set("commit.manifest.min-count-to-merge", minMerge).commit();
        DataFile first = data(m, 0, KEYS, 0);
        m.newAppend().appendFile(first).commit();
        DataFile prev = first;
        for (int i = 1; i <= 5; i++) {
          DataFile next = data(m, 0, KEYS, i);
          m.newRowDelta().removeRows(prev).addRows(next).commit();
          prev = next;
        }
        m.refresh();
        System.out.printf(
            "ANATOMY merged v%d manifests: %s%n",
            v,
            m.currentSnapshot().allManifests(m.io()).stream()
                .map(
                    f ->
                        f.content()
                            + " a"
                            + f.addedFilesCount()
                            + " e"
                            + f.existingFilesCount()
                            + " d"
                            + f.deletedFilesCount())
                .toList());
        report("v" + v + " merged 5 times, min-count-to-merge " + minMerge, m);
      }
    }
    measureAll();
  }

  /**
   * The same at the sizes of {@code sluice bench maintenance} (format v3): {@code
   * -Dsluice.measure.keys} rows (300,000 by default) compacted, in one file with a DV of 15% of its
   * rows or of one row, and in 9 files without and with such DVs.
   */
  @Test
  void atScale() throws IOException {
    int keys = Integer.getInteger("sluice.measure.keys", 300_000);
    int dead = keys * 15 / 100;
    Table a = table(3);
    a.newAppend().appendFile(data(a, 0, keys, 0)).commit();
    report("compacted, 1 file", a);
    for (int deleted : new int[] {1, dead}) {
      Table b = table(3);
      DataFile file = data(b, 0, keys + deleted, 0);
      b.newAppend().appendFile(file).commit();
      var rd = b.newRowDelta();
      dv(b, file, keys, keys + deleted).forEach(rd::addDeletes);
      rd.commit();
      report("1 file, DV of " + deleted + " rows", b);
    }
    for (int deleted : new int[] {0, 1, dead / 9}) {
      Table c = table(3);
      var append = c.newAppend();
      List<DataFile> files = new ArrayList<>();
      for (int f = 0; f < 9; f++) {
        long from = (long) f * keys / 9;
        long to = (long) (f + 1) * keys / 9;
        DataFile file = data(c, from, to + deleted, 0);
        files.add(file);
        append.appendFile(file);
      }
      append.commit();
      if (deleted > 0) {
        var rd = c.newRowDelta();
        for (DataFile file : files) {
          long rows = file.recordCount();
          dv(c, file, rows - deleted, rows).forEach(rd::addDeletes);
        }
        rd.commit();
      }
      c.rewriteManifests().clusterBy(f -> 1).commit();
      report("9 files, DVs of " + deleted + " rows each", c);
    }
    measureAll();
  }
}
