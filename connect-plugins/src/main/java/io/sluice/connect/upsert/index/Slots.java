package io.sluice.connect.upsert.index;

/**
 * The slot table of a {@link KeyIndex}: per slot its key (a long key, or where a byte key is in the
 * {@link KeyArena}), a byte key's hash, the file number ({@link KeyIndex#EMPTY} in a slot without a
 * key) and the row position. On the heap ({@link HeapSlots}) or in mapped files ({@link
 * MappedSlots}); a slot takes the same bytes in both.
 */
abstract class Slots {
  /** Bytes of the slots of a table of {@code capacity}. */
  static long bytes(int capacity, boolean longKeys) {
    return (long) capacity * (longKeys ? 16 : 20);
  }

  /** Slots in all, a power of two. */
  abstract int capacity();

  abstract long bytes();

  /** Whether the slots are in memory-mapped files. */
  abstract boolean mapped();

  abstract long key(int slot);

  abstract int hash(int slot);

  abstract int file(int slot);

  abstract int position(int slot);

  /** Gives an empty slot its key ({@code hash}: a byte key's, else unused). */
  abstract void fill(int slot, long key, int hash);

  abstract void place(int slot, int file, int position);

  abstract void file(int slot, int file);

  /** Gives mapped memory back at once; the slots are not used after. */
  abstract void release();

  /** Copies every slot with a key into the same slot of {@code to}, of the same capacity. */
  final void copyTo(Slots to) {
    for (int slot = 0; slot < capacity(); slot++) {
      int file = file(slot);
      if (file != KeyIndex.EMPTY) {
        to.fill(slot, key(slot), hash(slot));
        to.place(slot, file, position(slot));
      }
    }
  }
}
