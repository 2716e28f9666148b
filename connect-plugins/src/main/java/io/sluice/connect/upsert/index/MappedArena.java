package io.sluice.connect.upsert.index;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The {@link KeyArena} of a spilled index, in memory-mapped files ({@link SpillFiles}), one per
 * chunk. A key is never split over two chunks. Each new chunk holds half the arena before it (at
 * least 1 KiB, at most a chunk's bytes unless one key needs more), so at most a third of it is
 * unused, as with one array grown by half, and nothing is copied when it grows.
 */
final class MappedArena {
  private static final int MIN_CHUNK_BYTES = 1024;
  private static final int MAX_CHUNK_BYTES = Integer.MAX_VALUE - 8;

  private final int chunkBytes;
  private final SpillFiles files;
  private ByteBuffer[] chunks = new ByteBuffer[8];
  private int count;
  private int used;
  private long bytes;

  MappedArena(int chunkBytes, SpillFiles files) {
    this.chunkBytes = chunkBytes;
    this.files = files;
  }

  /** With {@code used} bytes of {@code heap} as its first chunk (references of a heap arena). */
  MappedArena(int chunkBytes, SpillFiles files, byte[] heap, int used) {
    this(chunkBytes, files);
    if (used > 0) {
      ByteBuffer first = files.allocate(used);
      first.put(0, heap, 0, used);
      add(first);
      this.used = used;
    }
  }

  long bytes() {
    return bytes;
  }

  long growthFor(int length) {
    long needed = KeyArena.recordBytes(length);
    if (count > 0 && chunks[count - 1].capacity() - used >= needed) {
      return 0;
    }
    return Math.max(needed, Math.min(chunkBytes, Math.max(MIN_CHUNK_BYTES, bytes / 2)));
  }

  long store(byte[] key) {
    long growth = growthFor(key.length);
    if (growth > MAX_CHUNK_BYTES) {
      throw new IllegalArgumentException("a key of " + key.length + " bytes cannot be indexed");
    }
    if (growth > 0) {
      add(files.allocate((int) growth));
      used = 0;
    }
    ByteBuffer chunk = chunks[count - 1];
    long reference = (long) (count - 1) << 32 | used;
    int length = key.length;
    while ((length & ~0x7F) != 0) {
      chunk.put(used++, (byte) ((length & 0x7F) | 0x80));
      length >>>= 7;
    }
    chunk.put(used++, (byte) length);
    chunk.put(used, key);
    used += key.length;
    return reference;
  }

  boolean holds(long reference, byte[] key) {
    ByteBuffer chunk = chunks[(int) (reference >>> 32)];
    int at = (int) reference;
    int length = 0;
    int shift = 0;
    byte b;
    do {
      b = chunk.get(at++);
      length |= (b & 0x7F) << shift;
      shift += 7;
    } while ((b & 0x80) != 0);
    if (length != key.length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (chunk.get(at + i) != key[i]) {
        return false;
      }
    }
    return true;
  }

  int length(long reference) {
    ByteBuffer chunk = chunks[(int) (reference >>> 32)];
    int at = (int) reference;
    int length = 0;
    int shift = 0;
    byte b;
    do {
      b = chunk.get(at++);
      length |= (b & 0x7F) << shift;
      shift += 7;
    } while ((b & 0x80) != 0);
    return length;
  }

  byte[] key(long reference) {
    int length = length(reference);
    byte[] key = new byte[length];
    int end = (int) reference + (int) KeyArena.storedBytes(length);
    chunks[(int) (reference >>> 32)].get(end - length, key);
    return key;
  }

  void release() {
    for (int i = 0; i < count; i++) {
      files.release(chunks[i]);
    }
  }

  private void add(ByteBuffer chunk) {
    if (count == chunks.length) {
      chunks = Arrays.copyOf(chunks, count * 2);
    }
    chunks[count++] = chunk;
    bytes += chunk.capacity();
  }
}
