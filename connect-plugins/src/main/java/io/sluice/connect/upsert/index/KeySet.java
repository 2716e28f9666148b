package io.sluice.connect.upsert.index;

import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructLikeSet;

/**
 * A set of table keys, asked about every row a merge reads back. A key of one column Iceberg holds
 * as an int or a long is kept as that long ({@link KeyEncoder}) in an open-addressing table of
 * longs: Iceberg's {@link StructLikeSet} compares keys field by field through its comparators,
 * which was a tenth of the sink task's time in a merge of 100,000 rows, and a set of boxed longs
 * still a fifth of the merge's. Any other key goes into a {@link StructLikeSet}. Keys are Iceberg's
 * internal values (wrap generic records with {@code InternalRecordWrapper}).
 */
public final class KeySet {
  private final KeyEncoder encoder;
  private final Longs longs = new Longs();
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

  /** Longs by linear probing in a power-of-two table at most half full. */
  private static final class Longs {
    private long[] slots = new long[64];
    private boolean[] used = new boolean[64];
    private int size;

    void add(long key) {
      if (2 * (size + 1) > slots.length) {
        grow();
      }
      int slot = find(key, slots, used);
      if (!used[slot]) {
        used[slot] = true;
        slots[slot] = key;
        size++;
      }
    }

    boolean contains(long key) {
      return used[find(key, slots, used)];
    }

    int size() {
      return size;
    }

    /** The slot holding {@code key}, else the empty slot where it would go. */
    private static int find(long key, long[] slots, boolean[] used) {
      int mask = slots.length - 1;
      int slot = mix(key) & mask;
      while (used[slot] && slots[slot] != key) {
        slot = (slot + 1) & mask;
      }
      return slot;
    }

    private void grow() {
      long[] newSlots = new long[slots.length * 2];
      boolean[] newUsed = new boolean[newSlots.length];
      for (int i = 0; i < slots.length; i++) {
        if (used[i]) {
          int slot = find(slots[i], newSlots, newUsed);
          newUsed[slot] = true;
          newSlots[slot] = slots[i];
        }
      }
      slots = newSlots;
      used = newUsed;
    }

    /** The high bits of a multiplicative hash, so that sequential keys spread. */
    private static int mix(long key) {
      long h = key * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32));
    }
  }
}
