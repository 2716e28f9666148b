package io.sluice.connect.upsert.commit;

import io.sluice.connect.upsert.write.PositionDeletes;
import io.sluice.connect.upsert.write.PositionDeltaWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.StructLikeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a batch written by position when a snapshot since its base changed what the batch took
 * for granted there: that the rows it deletes are its keys' only live rows. Iceberg's own checks of
 * a row delta on v2 see a removed data file, not another writer's delete of the same row plus the
 * key's new row elsewhere, which left the key twice once both committed. So this refuses when
 * another commit since the base
 *
 * <ul>
 *   <li>deleted by position (a DV, a file-scoped or a partition-scoped position delete) a row the
 *       batch deletes: a merge-on-read update or delete of the key;
 *   <li>added an equality delete of one of the batch's keys (one on columns other than the key is
 *       taken to match: which rows it deletes is not known by key);
 *   <li>added a data file holding one of the batch's keys: the new row of such an update, an
 *       equality-delete writer's insert, or another sink task's row of a key that moved between
 *       Kafka partitions.
 * </ul>
 *
 * A rewrite ({@code replace}) is passed over: it moves live rows, and one of a file the batch
 * deletes from fails Iceberg's own check that the file still exists. Data files are pruned by the
 * key columns' bounds before their key columns are read; each snapshot is read once however often
 * Iceberg retries the commit.
 */
final class NoConcurrentChangesOfKeys implements SnapshotAncestryValidator {
  private static final Logger log = LoggerFactory.getLogger(NoConcurrentChangesOfKeys.class);

  private final FileIO io;
  private final Map<Integer, PartitionSpec> specs;
  private final Long base;
  private final PositionDeltaWriter.Footprint footprint;
  private final Schema keySchema;
  private final StructLikeSet keys;
  private final List<KeyField> keyFields = new ArrayList<>();
  private final Set<Integer> keyFieldIds = new HashSet<>();
  private final BaseDeleteLoader loader;
  private final Set<Long> cleared = new HashSet<>();
  private volatile String problem;
  private int filesRead;

  /**
   * @param base the snapshot the batch was written at; null when the table had none
   */
  NoConcurrentChangesOfKeys(
      FileIO io,
      Map<Integer, PartitionSpec> specs,
      Snapshot base,
      PositionDeltaWriter.Footprint footprint) {
    this.io = io;
    this.specs = specs;
    this.base = base == null ? null : base.snapshotId();
    this.footprint = footprint;
    this.keySchema = footprint.keySchema();
    this.keys = StructLikeSet.create(keySchema.asStruct());
    keys.addAll(footprint.keys());
    List<Types.NestedField> columns = keySchema.columns();
    for (int i = 0; i < columns.size(); i++) {
      keyFields.add(new KeyField(i, columns.get(i)));
      keyFieldIds.add(columns.get(i).fieldId());
    }
    this.loader = PositionDeletes.loader(io);
  }

  @Override
  public boolean validate(Iterable<Snapshot> ancestry) {
    int readBefore = filesRead;
    int checked = 0;
    for (Snapshot snapshot : ancestry) {
      if (base != null && snapshot.snapshotId() == base) {
        break;
      }
      if (cleared.contains(snapshot.snapshotId())) {
        continue;
      }
      checked++;
      problem = conflict(snapshot);
      if (problem != null) {
        return false;
      }
      cleared.add(snapshot.snapshotId());
    }
    if (checked > 0) {
      log.debug(
          "{} keys checked against {} snapshots since {}: {} files read",
          keys.size(),
          checked,
          base,
          filesRead - readBefore);
    }
    problem = null;
    return true;
  }

  @Override
  public String errorMessage() {
    return problem == null ? "no concurrent change of the batch's rows or keys" : problem;
  }

  /** Files read so far to tell whether a snapshot conflicts. */
  int filesRead() {
    return filesRead;
  }

  private String conflict(Snapshot snapshot) {
    if (DataOperations.REPLACE.equals(snapshot.operation())) {
      return null;
    }
    String prefix = "snapshot " + snapshot.snapshotId() + " since " + base + " added ";
    try {
      for (DeleteFile delete : snapshot.addedDeleteFiles(io)) {
        String found =
            delete.content() == FileContent.POSITION_DELETES
                ? deletedRow(delete)
                : deletedKey(delete);
        if (found != null) {
          return prefix + found;
        }
      }
      for (DataFile file : snapshot.addedDataFiles(io)) {
        String found = mayHoldKey(file) ? heldKey(file) : null;
        if (found != null) {
          return prefix + found;
        }
      }
    } catch (RuntimeException e) {
      // Unknown is refused: the batch is written again at a newer snapshot.
      return "snapshot " + snapshot.snapshotId() + " could not be checked: " + e;
    }
    return null;
  }

  /** Which row of the batch {@code delete} deletes by position, described; null for none. */
  private String deletedRow(DeleteFile delete) {
    String target = ContentFileUtil.referencedDataFileLocation(delete);
    if (target != null) {
      return footprint.positions().containsKey(target) ? deletedRow(delete, target) : null;
    }
    // Partition-scoped: it may hold rows of every file of its spec and partition.
    Comparator<StructLike> partitions =
        Comparators.forType(specs.get(delete.specId()).partitionType());
    for (Map.Entry<String, DataFile> entry : footprint.files().entrySet()) {
      DataFile file = entry.getValue();
      if (file.specId() == delete.specId()
          && partitions.compare(file.partition(), delete.partition()) == 0) {
        String found = deletedRow(delete, entry.getKey());
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  private String deletedRow(DeleteFile delete, String target) {
    filesRead++;
    PositionDeleteIndex deleted = loader.loadPositionDeletes(List.of(delete), target);
    for (long position : footprint.positions().get(target)) {
      if (deleted.isDeleted(position)) {
        return (ContentFileUtil.isDV(delete) ? "a DV " : "position delete file ")
            + delete.location()
            + " deleting row "
            + position
            + " of data file "
            + target
            + ", which this commit deletes too (another writer changed its key)";
      }
    }
    return null;
  }

  /** Which key of the batch equality delete {@code delete} deletes, described; null for none. */
  private String deletedKey(DeleteFile delete) {
    Set<Integer> fields = new HashSet<>(delete.equalityFieldIds());
    if (!fields.containsAll(keyFieldIds)) {
      return "equality delete file "
          + delete.location()
          + " on fields "
          + fields
          + ", not the key: it may delete a row of a key this commit writes";
    }
    filesRead++;
    StructLikeSet deleted = loader.loadEqualityDeletes(List.of(delete), keySchema);
    for (StructLike key : footprint.keys()) {
      if (deleted.contains(key)) {
        return "equality delete file "
            + delete.location()
            + " deleting key "
            + describe(key)
            + ", which this commit writes";
      }
    }
    return null;
  }

  /**
   * Whether {@code file} may hold a key of the batch by its key columns' bounds: some key lies
   * within them on every column that has bounds.
   */
  private boolean mayHoldKey(DataFile file) {
    Map<Integer, ByteBuffer> lowers = file.lowerBounds();
    Map<Integer, ByteBuffer> uppers = file.upperBounds();
    if (lowers == null || uppers == null) {
      return true;
    }
    List<Bounds> bounds = new ArrayList<>();
    for (KeyField field : keyFields) {
      ByteBuffer lower = lowers.get(field.id());
      ByteBuffer upper = uppers.get(field.id());
      if (lower != null && upper != null && field.type().isPrimitiveType()) {
        bounds.add(
            new Bounds(
                field,
                Conversions.fromByteBuffer(field.type(), lower),
                Conversions.fromByteBuffer(field.type(), upper)));
      }
    }
    if (bounds.isEmpty()) {
      return true;
    }
    try {
      for (StructLike key : footprint.keys()) {
        if (bounds.stream().allMatch(b -> b.contain(key))) {
          return true;
        }
      }
      return false;
    } catch (ClassCastException e) {
      // A key type whose internal value the bounds do not compare with: read the file.
      return true;
    }
  }

  /** Which key of the batch {@code file} holds, described; null for none. */
  private String heldKey(DataFile file) {
    filesRead++;
    InternalRecordWrapper internal = new InternalRecordWrapper(keySchema.asStruct());
    try (CloseableIterable<Record> rows =
        FormatModelRegistry.<Record, Object>readBuilder(
                file.format(),
                Record.class,
                io.newInputFile(file.location(), file.fileSizeInBytes()))
            .project(keySchema)
            .build()) {
      for (Record row : rows) {
        StructLike key = internal.wrap(row);
        if (keys.contains(key)) {
          return "data file "
              + file.location()
              + " holding key "
              + describe(key)
              + ", which this commit writes";
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the keys of " + file.location(), e);
    }
    return null;
  }

  private String describe(StructLike key) {
    List<String> values = new ArrayList<>();
    for (KeyField field : keyFields) {
      values.add(String.valueOf(key.get(field.position(), Object.class)));
    }
    return values.size() == 1 ? values.get(0) : "(" + String.join(", ", values) + ")";
  }

  /** A key column: its place in the key, its field, and the order of its values. */
  private record KeyField(int position, Types.NestedField field, Comparator<Object> order) {
    @SuppressWarnings("unchecked")
    KeyField(int position, Types.NestedField field) {
      this(
          position,
          field,
          field.type().isPrimitiveType()
              ? (Comparator<Object>) Comparators.forType(field.type().asPrimitiveType())
              : null);
    }

    int id() {
      return field.fieldId();
    }

    Type type() {
      return field.type();
    }
  }

  /** A data file's bounds of one key column. */
  private record Bounds(KeyField field, Object lower, Object upper) {
    boolean contain(StructLike key) {
      Object value = key.get(field.position(), Object.class);
      return value == null
          || (field.order().compare(lower, value) <= 0 && field.order().compare(value, upper) <= 0);
    }
  }
}
