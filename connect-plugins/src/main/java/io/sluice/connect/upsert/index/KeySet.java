package io.sluice.connect.upsert.index;

import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructLikeSet;

/**
 * A set of table keys, asked about every row a merge reads back. A key of one column Iceberg holds
 * as an int or a long is kept as that long ({@link KeyEncoder}) in a {@link LongSet}: Iceberg's
 * {@link StructLikeSet} compares keys field by field through its comparators, which was a tenth of
 * the sink task's time in a merge of 100,000 rows, and a set of boxed longs still a fifth of the
 * merge's. Any other key goes into a {@link StructLikeSet}. Keys are Iceberg's internal values
 * (wrap generic records with {@code InternalRecordWrapper}).
 */
public final class KeySet {
  private final KeyEncoder encoder;
  private final LongSet longs = new LongSet();
  private final StructLikeSet structs;
  private final InternalRecordWrapper wrapper;
  private final Types.StructType keyType;

  public KeySet(Schema keySchema) {
    this.encoder = new KeyEncoder(keySchema);
    this.structs = encoder.longKeys() ? null : StructLikeSet.create(keySchema.asStruct());
    this.wrapper = new InternalRecordWrapper(keySchema.asStruct());
    this.keyType = keySchema.asStruct();
  }

  /** Adds a key given as a generic record of the key schema (Iceberg's values, not internal). */
  public void addRecord(Record key) {
    add(structs == null ? wrapper.wrap(key) : new InternalRecordWrapper(keyType).wrap(key));
  }

  /**
   * Adds {@code key}; the set keeps no reference to it when keys are longs, else it keeps it: pass
   * a copy when the caller reuses the struct.
   */
  public void add(StructLike key) {
    if (structs == null) {
      longs.add(encoder.asLong(key));
    } else {
      structs.add(key);
    }
  }

  public boolean contains(StructLike key) {
    return structs == null ? longs.contains(encoder.asLong(key)) : structs.contains(key);
  }

  public int size() {
    return structs == null ? longs.size() : structs.size();
  }
}
