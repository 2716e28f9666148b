package io.sluice.connect.upsert.index;

/**
 * The byte keys of a {@link KeyIndex}, each appended as its length (varint) and its bytes, and
 * found again by a reference. On the heap ({@link HeapArena}).
 */
abstract class KeyArena {
  /** Bytes the arena holds. */
  abstract long bytes();

  /** Appends {@code key}; returns its reference. */
  abstract long store(byte[] key);

  /** Whether the key at {@code reference} is {@code key}. */
  abstract boolean holds(long reference, byte[] key);
}
