package io.sluice.connect.upsert.index;

import io.sluice.lake.ScanRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.util.StructProjection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where every live key of one table is at one snapshot: its data file and row position. Built from
 * the key columns of the live data files (Iceberg's delete filter applied), then kept up to date:
 * the task's own commits are applied as they land, and every other snapshot (another task's commit,
 * a rewrite, a commit whose outcome was unknown) is caught up from its added and removed data
 * files.
 *
 * <p><b>Soundness</b>, the one property the sink relies on: at snapshot {@link #snapshotId()}, for
 * every key with a live row at (file f, position p), the index maps the key to (f, p). An entry may
 * also point at a dead row (deleted since by someone else's delete) or at a removed file; deleting
 * a dead row again changes nothing, and a removed file's entries are treated as absent. So a key
 * the index does not place has no live row, and one it places is deleted exactly by deleting that
 * position. Catching up keeps it: a row live now was live at the last snapshot the index knew, so
 * it is placed already, or it is in a data file added since, which is read (rows as live now).
 */
public final class TableKeyIndex {
  private static final Logger log = LoggerFactory.getLogger(TableKeyIndex.class);

  private final Schema keySchema;
  private final KeyEncoder encoder;
  private final KeyIndex index;
  private final List<DataFile> files = new ArrayList<>();
  private final Map<String, Integer> numbers = new HashMap<>();
  private final BitSet removed = new BitSet();
  private long removedRows;
  private final Set<Long> ownApplied = new HashSet<>();
  private long snapshotId = NONE;
  private long rowsRead;
  // The other live rows (KeyIndex.at) of keys the build found live more than once, by key
  // encoding (a Long or a ByteBuffer): deleted with the key's next change, then forgotten.
  private final Map<Object, List<Long>> extraRows = new HashMap<>();
  private long duplicateKeys;
  private String firstDuplicate;

  /** Where a key's live row is. */
  public record Location(DataFile file, long position) {}

  /** The snapshot id of an index of a table that has no snapshot yet. */
  private static final long NONE = 0;

  private static final int MIN_REMOVED_TO_COMPACT = 256;
  private static final int MIN_REMOVED_ROWS_TO_COMPACT = 1024;

  private TableKeyIndex(Schema keySchema, int expectedKeys, KeyIndexLimits limits) {
    this.keySchema = keySchema;
    this.encoder = new KeyEncoder(keySchema);
    this.index = new KeyIndex(encoder.longKeys(), expectedKeys, limits);
  }

  /** The index of a table that has no snapshot yet. */
  public static TableKeyIndex empty(Schema keySchema, KeyIndexLimits limits) {
    return new TableKeyIndex(keySchema, 0, limits);
  }

  /**
   * Reads where every live key of {@code table} is at {@code snapshot}, on the heap without limit.
   *
   * @throws UnsupportedOperationException when a live data file is not Parquet
   */
  public static TableKeyIndex build(Table table, Snapshot snapshot, Schema keySchema) {
    return build(table, snapshot, keySchema, KeyIndexLimits.UNBOUNDED_HEAP);
  }

  /**
   * Reads where every live key of {@code table} is at {@code snapshot}, within {@code limits}.
   *
   * @throws UnsupportedOperationException when a live data file is not Parquet
   * @throws KeyIndexLimitException when the index would pass its limits (it is dropped unfinished)
   */
  public static TableKeyIndex build(
      Table table, Snapshot snapshot, Schema keySchema, KeyIndexLimits limits) {
    long records =
        Long.parseLong(snapshot.summary().getOrDefault("total-records", "0"))
            - Long.parseLong(snapshot.summary().getOrDefault("total-position-deletes", "0"));
    TableKeyIndex built =
        new TableKeyIndex(
            keySchema, (int) Math.min(Integer.MAX_VALUE / 4, Math.max(0, records)), limits);
    built.index.strict(true);
    try (CloseableIterable<FileScanTask> tasks =
        ScanRows.plan(table.newScan().useSnapshot(snapshot.snapshotId()))) {
      for (FileScanTask task : tasks) {
        built.read(table, task, true);
      }
    } catch (IOException e) {
      built.release();
      throw new UncheckedIOException("cannot plan a read of " + table.name(), e);
    } catch (RuntimeException e) {
      built.release();
      throw e;
    }
    built.index.strict(false);
    built.snapshotId = snapshot.snapshotId();
    if (built.duplicateKeys > 0) {
      log.error(
          "Table {} holds {} keys with more than one live row at snapshot {}, e.g. {}: two live"
              + " rows for one key. The sink writes one row per key; the others came from another"
              + " writer (an engine inserting a key the table holds) or from a key that moved"
              + " between Kafka partitions held by two tasks. The sink deletes every row of such"
              + " a key at the key's next change; to fix the table now, delete the extra rows",
          table.name(),
          built.duplicateKeys,
          snapshot.snapshotId(),
          built.firstDuplicate);
    }
    return built;
  }

  /** Keys the build found with more than one live row (see {@link #locateAll}). */
  public long duplicateKeys() {
    return duplicateKeys;
  }

  public Schema keySchema() {
    return keySchema;
  }

  /** The snapshot the index is sound at (see the class comment). */
  public long snapshotId() {
    return snapshotId;
  }

  /**
   * Keys with a slot: the live ones and absent ones (deleted, or of removed files) the index has
   * not re-packed away yet, at most about as many as live ones.
   */
  public int keys() {
    return index.size();
  }

  /**
   * Keys placed in a data file: the live keys, and those of files removed since the index last
   * forgot removed files (fewer than the others, or 1,024).
   */
  public int liveKeys() {
    return index.liveKeys();
  }

  /** Bytes the index holds, on the heap and in mapped files ({@link #spilledBytes()}). */
  public long bytes() {
    return index.bytes() + files.size() * 64L + extraRows.size() * 96L;
  }

  /** Bytes of the index in memory-mapped files: past its heap limit, it spilled. */
  public long spilledBytes() {
    return index.spilledBytes();
  }

  /**
   * Why the index grew past its limits (applying the task's own commit, which must be applied
   * whole), if it did: it is still sound, but should be dropped.
   */
  public Optional<String> pastLimits() {
    return Optional.ofNullable(index.pastLimits());
  }

  /**
   * {@link #catchUp} refusing growth past the index's limits.
   *
   * @throws KeyIndexLimitException when the index would pass them (drop it then)
   */
  public boolean catchUpWithinLimits(Table table) {
    index.strict(true);
    try {
      return catchUp(table);
    } finally {
      index.strict(false);
    }
  }

  /** Gives the index's mapped memory back at once (else at a GC); it is not used after. */
  public void release() {
    index.release();
  }

  /** Rows read from data files since the index was built (the build included). */
  public long rowsRead() {
    return rowsRead;
  }

  /**
   * Brings the index to {@code table}'s current snapshot (the caller refreshed the table).
   *
   * @return false when the index cannot follow: its snapshot is no ancestor of the current one (it
   *     was expired, or the table rolled back); build a new index then
   */
  public boolean catchUp(Table table) {
    Snapshot current = table.currentSnapshot();
    if (current == null) {
      return snapshotId == NONE;
    }
    if (current.snapshotId() == snapshotId) {
      return true;
    }
    List<Snapshot> since = new ArrayList<>();
    Snapshot s = current;
    while (s != null && s.snapshotId() != snapshotId) {
      if (!ownApplied.contains(s.snapshotId())) {
        since.add(s);
      }
      s = s.parentId() == null ? null : table.snapshot(s.parentId());
    }
    if (s == null && snapshotId != NONE) {
      return false;
    }
    Set<String> added = new HashSet<>();
    for (int i = since.size() - 1; i >= 0; i--) {
      Snapshot snapshot = since.get(i);
      for (DataFile file : snapshot.removedDataFiles(table.io())) {
        remove(file);
        added.remove(file.location());
      }
      for (DataFile file : snapshot.addedDataFiles(table.io())) {
        added.add(file.location());
      }
    }
    if (!added.isEmpty()) {
      try (CloseableIterable<FileScanTask> tasks =
          ScanRows.plan(table.newScan().useSnapshot(current.snapshotId()))) {
        for (FileScanTask task : tasks) {
          if (added.contains(task.file().location())) {
            read(table, task, false);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot plan a read of " + table.name(), e);
      }
    }
    snapshotId = current.snapshotId();
    ownApplied.clear();
    compactFilesIfMostlyRemoved();
    return true;
  }

  /**
   * Where {@code key}'s live row is, or null when it has none.
   *
   * @param key the key's columns in {@link #keySchema()} order, Iceberg's internal values
   */
  public Location locate(StructLike key) {
    int slot =
        encoder.longKeys() ? index.find(encoder.asLong(key)) : index.find(encoder.asBytes(key));
    if (slot < 0) {
      return null;
    }
    int file = index.file(slot);
    if (file == KeyIndex.ABSENT || removed.get(file)) {
      return null;
    }
    return new Location(files.get(file), index.position(slot));
  }

  /**
   * Where every live row of {@code key} is: none, one ({@link #locate}), or more when the build
   * found the key live more than once (another writer's row, a key that moved between partitions):
   * a change of the key deletes them all.
   *
   * @param key the key's columns in {@link #keySchema()} order, Iceberg's internal values
   */
  public List<Location> locateAll(StructLike key) {
    Location at = locate(key);
    List<Long> extra = extraRows.isEmpty() ? null : extraRows.get(encoded(key));
    if (extra == null) {
      return at == null ? List.of() : List.of(at);
    }
    List<Location> all = new ArrayList<>(extra.size() + 1);
    if (at != null) {
      all.add(at);
    }
    for (long row : extra) {
      int file = KeyIndex.fileOf(row);
      if (!removed.get(file)) {
        all.add(new Location(files.get(file), KeyIndex.positionOf(row)));
      }
    }
    return all;
  }

  /**
   * Applies the task's own commit: every written key's row is at its new place, every deleted key
   * has none. The index then knows {@code committed} and, when it is not the snapshot after the
   * index's own, still has the snapshots between them to catch up.
   *
   * @param written the commit's new data files, each with the keys of its rows in order, or null
   *     when the writer kept none (rows it copied): then the file's keys are read
   * @param deleted keys deleted without a new row
   * @param removed data files the commit removed, each of whose live rows is in {@code written}
   */
  public void applyOwn(
      Table table,
      Snapshot committed,
      Map<DataFile, List<StructLike>> written,
      List<StructLike> deleted,
      List<DataFile> removed) {
    if (!extraRows.isEmpty()) {
      // The commit deleted every row the batch's keys had (locateAll).
      written.values().stream()
          .filter(keys -> keys != null)
          .forEach(keys -> keys.forEach(key -> extraRows.remove(encoded(key))));
      deleted.forEach(key -> extraRows.remove(encoded(key)));
    }
    for (DataFile file : removed) {
      remove(file);
    }
    for (Map.Entry<DataFile, List<StructLike>> entry : written.entrySet()) {
      int number = numberOf(entry.getKey());
      List<StructLike> keys = entry.getValue();
      if (keys == null) {
        readNew(table, entry.getKey(), number);
        continue;
      }
      for (int position = 0; position < keys.size(); position++) {
        put(keys.get(position), number, position);
      }
    }
    for (StructLike key : deleted) {
      put(key, KeyIndex.ABSENT, 0);
    }
    if (committed.parentId() != null && committed.parentId() == snapshotId) {
      snapshotId = committed.snapshotId();
    } else {
      ownApplied.add(committed.snapshotId());
    }
    compactFilesIfMostlyRemoved();
  }

  /** Treats the keys of {@code file} as absent from now on, if the index knows it. */
  private void remove(DataFile file) {
    Integer number = numbers.get(file.location());
    if (number != null && !removed.get(number)) {
      removed.set(number);
      removedRows += files.get(number).recordCount();
    }
  }

  /**
   * Forgets the removed files once they are half the files, or their rows (an upper bound of the
   * keys still placed in them) outnumber the other placed keys: then the index re-packs.
   */
  private void compactFilesIfMostlyRemoved() {
    if (removed.cardinality() > Math.max(MIN_REMOVED_TO_COMPACT, files.size() / 2)
        || (removedRows > MIN_REMOVED_ROWS_TO_COMPACT
            && removedRows > index.liveKeys() - removedRows)) {
      compactFiles();
    }
  }

  /** Places {@code key}; returns where it was ({@link KeyIndex#put}). */
  private long put(StructLike key, int file, long position) {
    if (position > Integer.MAX_VALUE) {
      throw new IllegalStateException("a data file of more than 2^31 rows cannot be indexed");
    }
    if (encoder.longKeys()) {
      return index.put(encoder.asLong(key), file, (int) position);
    }
    return index.put(encoder.asBytes(key), file, (int) position);
  }

  private Object encoded(StructLike key) {
    return encoder.longKeys()
        ? (Object) encoder.asLong(key)
        : ByteBuffer.wrap(encoder.asBytes(key));
  }

  /** Keeps {@code previous}, a live row of {@code key} that a place of another row displaced. */
  private void keepExtraRow(StructLike key, long previous) {
    extraRows.computeIfAbsent(encoded(key), k -> new ArrayList<>(1)).add(previous);
  }

  /** The build read a second live row of {@code key}: a duplicate key in the table. */
  private void duplicate(StructLike key, long previous, int file, long position) {
    Object encoded = encoded(key);
    if (!extraRows.containsKey(encoded)) {
      duplicateKeys++;
    }
    keepExtraRow(key, previous);
    if (firstDuplicate == null) {
      StringBuilder values = new StringBuilder("key (");
      for (int i = 0; i < keySchema.columns().size(); i++) {
        values
            .append(i == 0 ? "" : ", ")
            .append(keySchema.columns().get(i).name())
            .append('=')
            .append(key.get(i, Object.class));
      }
      firstDuplicate =
          values
              + ") at "
              + files.get(KeyIndex.fileOf(previous)).location()
              + " position "
              + KeyIndex.positionOf(previous)
              + " and at "
              + files.get(file).location()
              + " position "
              + position;
    }
  }

  /** Forgets removed files: their keys become absent, the other files are numbered anew. */
  private void compactFiles() {
    int[] renumbered = new int[files.size()];
    List<DataFile> kept = new ArrayList<>(files.size() - removed.cardinality());
    numbers.clear();
    for (int i = 0; i < files.size(); i++) {
      if (removed.get(i)) {
        renumbered[i] = KeyIndex.ABSENT;
      } else {
        renumbered[i] = kept.size();
        numbers.put(files.get(i).location(), kept.size());
        kept.add(files.get(i));
      }
    }
    index.renumberFiles(renumbered);
    extraRows
        .values()
        .forEach(
            rows -> {
              rows.removeIf(row -> renumbered[KeyIndex.fileOf(row)] < 0);
              rows.replaceAll(
                  row -> KeyIndex.at(renumbered[KeyIndex.fileOf(row)], KeyIndex.positionOf(row)));
            });
    extraRows.values().removeIf(List::isEmpty);
    files.clear();
    files.addAll(kept);
    removed.clear();
    removedRows = 0;
  }

  private int numberOf(DataFile file) {
    Integer number = numbers.get(file.location());
    if (number == null) {
      number = files.size();
      files.add(file.copyWithoutStats());
      numbers.put(file.location(), number);
    }
    return number;
  }

  /**
   * Indexes every row of a data file this task has just committed, which no delete applies to yet:
   * its key columns, in order.
   */
  private void readNew(Table table, DataFile file, int number) {
    InternalRecordWrapper internal = new InternalRecordWrapper(keySchema.asStruct());
    long position = 0;
    try (CloseableIterable<Record> rows =
        FormatModelRegistry.<Record, Object>readBuilder(
                file.format(),
                Record.class,
                table.io().newInputFile(file.location(), file.fileSizeInBytes()))
            .project(keySchema)
            .build()) {
      for (Record row : rows) {
        StructLike key = internal.wrap(row);
        long previous = put(key, number, position++);
        int was = KeyIndex.fileOf(previous);
        if (was >= 0 && !removed.get(was)) {
          // A copied row's key placed in a file not removed: an extra row of a duplicate key.
          keepExtraRow(key, previous);
        }
        rowsRead++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the keys of " + file.location() + " of " + table.name(), e);
    }
  }

  /**
   * Indexes the live rows of one data file, as the task's delete files leave them.
   *
   * @param building whether every row read is live with the others placed (a build): a key placed
   *     already is then a duplicate key
   */
  private void read(Table table, FileScanTask task, boolean building) {
    DataFile file = task.file();
    if (file.format() != FileFormat.PARQUET) {
      throw new UnsupportedOperationException(
          "data file " + file.location() + " of " + table.name() + " is " + file.format());
    }
    Schema projected = TypeUtil.join(keySchema, new Schema(MetadataColumns.ROW_POSITION));
    DeleteFilter<Record> deletes = ScanRows.deletes(table.io(), task, table.schema(), projected);
    Schema required = deletes.requiredSchema();
    InternalRecordWrapper internal = new InternalRecordWrapper(required.asStruct());
    StructProjection key = StructProjection.create(required, keySchema);
    int number = numberOf(file);
    try (CloseableIterable<Record> rows =
        deletes.filter(
            FormatModelRegistry.<Record, Object>readBuilder(
                    file.format(),
                    Record.class,
                    table.io().newInputFile(file.location(), file.fileSizeInBytes()))
                .project(required)
                .build())) {
      for (Record row : rows) {
        long position = (Long) row.getField(MetadataColumns.ROW_POSITION.name());
        StructLike rowKey = key.wrap(internal.wrap(row));
        long previous = put(rowKey, number, position);
        if (building && KeyIndex.fileOf(previous) >= 0) {
          duplicate(rowKey, previous, number, position);
        }
        rowsRead++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the keys of " + file.location() + " of " + table.name(), e);
    }
  }
}
