package io.sluice.connect.upsert.index;

/**
 * The byte keys of a {@link KeyIndex}, each appended as its length (varint) and its bytes. A key's
 * reference is its chunk's number (high 32 bits) and its offset in it. On the heap ({@link
 * HeapArena}, one array: chunk 0) or in mapped files ({@link MappedArena}).
 */
abstract class KeyArena {
  /** Bytes of a key of {@code length} bytes in the arena, its length's varint at most. */
  static long recordBytes(int length) {
    return 5L + length;
  }

  /** Bytes the arena holds. */
  abstract long bytes();

  /** Bytes the arena adds to store a key of {@code length} bytes; 0 when it has room. */
  abstract long growthFor(int length);

  /** Appends {@code key}; returns its reference. */
  abstract long store(byte[] key);

  /** Whether the key at {@code reference} is {@code key}. */
  abstract boolean holds(long reference, byte[] key);

  /** Gives mapped memory back at once; the arena is not used after. */
  abstract void release();
}
