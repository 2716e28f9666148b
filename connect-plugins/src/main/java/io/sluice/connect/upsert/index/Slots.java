package io.sluice.connect.upsert.index;

import java.util.Arrays;

/**
 * The slot table of a {@link KeyIndex}: per slot its key (a long key, or where a byte key is in the
 * {@link KeyArena}), a byte key's hash, the file number ({@link KeyIndex#EMPTY} in a slot without a
 * key) and the row position. On the heap in parallel arrays, or in mapped files ({@link
 * MappedSlots}); a slot takes the same bytes in both.
 *
 * <p>One final class that asks where its slots are at each call, rather than two subclasses: once
 * an index of the worker had spilled, the calls through a common type were no longer inlined for
 * the heap indexes, whose probes then took 40% longer. The question has the same answer at every
 * call of a probe loop, so it costs a predicted branch.
 */
final class Slots {
  private final int capacity;
  private final boolean longKeys;
  private final long[] keys;
  private final int[] hashes;
  private final int[] files;
  private final int[] positions;
  private final MappedSlots mapped;

  private Slots(int capacity, boolean longKeys, MappedSlots mapped) {
    this.capacity = capacity;
    this.longKeys = longKeys;
    this.mapped = mapped;
    boolean heap = mapped == null;
    keys = heap ? new long[capacity] : null;
    hashes = heap && !longKeys ? new int[capacity] : null;
    files = heap ? new int[capacity] : null;
    if (heap) {
      Arrays.fill(files, KeyIndex.EMPTY);
    }
    positions = heap ? new int[capacity] : null;
  }

  /** Empty slots on the heap; {@code capacity} is a power of two. */
  static Slots onHeap(int capacity, boolean longKeys) {
    return new Slots(capacity, longKeys, null);
  }

  /** Empty slots in mapped files, in chunks of at most {@code chunkBytes}. */
  static Slots mapped(int capacity, boolean longKeys, int chunkBytes, SpillFiles files) {
    return new Slots(capacity, longKeys, new MappedSlots(capacity, longKeys, chunkBytes, files));
  }

  /** Bytes of the slots of a table of {@code capacity}. */
  static long bytes(int capacity, boolean longKeys) {
    return (long) capacity * (longKeys ? 16 : 20);
  }

  /** Slots in all, a power of two. */
  int capacity() {
    return capacity;
  }

  long bytes() {
    return bytes(capacity, longKeys);
  }

  /** Whether the slots are in memory-mapped files. */
  boolean mapped() {
    return mapped != null;
  }

  long key(int slot) {
    return mapped == null ? keys[slot] : mapped.key(slot);
  }

  int hash(int slot) {
    if (longKeys) {
      return 0;
    }
    return mapped == null ? hashes[slot] : mapped.hash(slot);
  }

  int file(int slot) {
    return mapped == null ? files[slot] : mapped.file(slot);
  }

  int position(int slot) {
    return mapped == null ? positions[slot] : mapped.position(slot);
  }

  /** Gives an empty slot its key ({@code hash}: a byte key's, else unused). */
  void fill(int slot, long key, int hash) {
    if (mapped != null) {
      mapped.fill(slot, key, hash);
      return;
    }
    keys[slot] = key;
    if (!longKeys) {
      hashes[slot] = hash;
    }
  }

  void place(int slot, int file, int position) {
    if (mapped != null) {
      mapped.place(slot, file, position);
      return;
    }
    files[slot] = file;
    positions[slot] = position;
  }

  void file(int slot, int file) {
    if (mapped != null) {
      mapped.file(slot, file);
      return;
    }
    files[slot] = file;
  }

  /** Copies every slot with a key into the same slot of {@code to}, of the same capacity. */
  void copyTo(Slots to) {
    for (int slot = 0; slot < capacity; slot++) {
      int file = file(slot);
      if (file != KeyIndex.EMPTY) {
        to.fill(slot, key(slot), hash(slot));
        to.place(slot, file, position(slot));
      }
    }
  }

  /** Gives mapped memory back at once; the slots are not used after. */
  void release() {
    if (mapped != null) {
      mapped.release();
    }
  }
}
