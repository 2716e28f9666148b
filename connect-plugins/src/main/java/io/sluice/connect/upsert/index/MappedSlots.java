package io.sluice.connect.upsert.index;

import java.nio.ByteBuffer;

/**
 * The {@link Slots} of a spilled index, in memory-mapped files ({@link SpillFiles}): a fixed-size
 * record per slot, in chunks of at most a chunk's bytes, so that a table may pass the 2 GiB one
 * buffer holds. A record holds the slot's key, file number, position and (byte keys) hash side by
 * side, so a probe reads one page where parallel arrays would read one each. The file number is
 * stored plus 2, so that a fresh (zero) file reads {@link KeyIndex#EMPTY} and is never written
 * before it is used.
 */
final class MappedSlots {
  private static final int FILE_AT = 8;
  private static final int POSITION_AT = 12;
  private static final int HASH_AT = 16;

  private final boolean longKeys;
  private final int recordBytes;
  private final int shift;
  private final int mask;
  private final SpillFiles files;
  private final ByteBuffer[] chunks;

  /**
   * @param capacity a power of two
   */
  MappedSlots(int capacity, boolean longKeys, int chunkBytes, SpillFiles files) {
    this.longKeys = longKeys;
    this.recordBytes = (int) Slots.bytes(1, longKeys);
    int perChunk = Math.min(capacity, Integer.highestOneBit(Math.max(1, chunkBytes / recordBytes)));
    this.shift = Integer.numberOfTrailingZeros(perChunk);
    this.mask = perChunk - 1;
    this.files = files;
    this.chunks = new ByteBuffer[capacity / perChunk];
    for (int i = 0; i < chunks.length; i++) {
      try {
        chunks[i] = files.allocate(perChunk * recordBytes);
      } catch (RuntimeException e) {
        // A full disk fails here: the chunks mapped so far would hold their space until a GC.
        release();
        throw e;
      }
    }
  }

  long key(int slot) {
    return chunks[slot >>> shift].getLong((slot & mask) * recordBytes);
  }

  int hash(int slot) {
    return chunks[slot >>> shift].getInt((slot & mask) * recordBytes + HASH_AT);
  }

  int file(int slot) {
    return chunks[slot >>> shift].getInt((slot & mask) * recordBytes + FILE_AT) + KeyIndex.EMPTY;
  }

  int position(int slot) {
    return chunks[slot >>> shift].getInt((slot & mask) * recordBytes + POSITION_AT);
  }

  void fill(int slot, long key, int hash) {
    ByteBuffer chunk = chunks[slot >>> shift];
    int at = (slot & mask) * recordBytes;
    chunk.putLong(at, key);
    if (!longKeys) {
      chunk.putInt(at + HASH_AT, hash);
    }
  }

  void place(int slot, int file, int position) {
    ByteBuffer chunk = chunks[slot >>> shift];
    int at = (slot & mask) * recordBytes;
    chunk.putInt(at + FILE_AT, file - KeyIndex.EMPTY);
    chunk.putInt(at + POSITION_AT, position);
  }

  void file(int slot, int file) {
    chunks[slot >>> shift].putInt((slot & mask) * recordBytes + FILE_AT, file - KeyIndex.EMPTY);
  }

  void release() {
    for (ByteBuffer chunk : chunks) {
      if (chunk != null) {
        files.release(chunk);
      }
    }
  }
}
