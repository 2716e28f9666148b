package io.sluice.connect.upsert.index;

import java.util.Arrays;

/**
 * The byte keys of a {@link KeyIndex}, each appended as its length (varint) and its bytes. A key's
 * reference is its chunk's number (high 32 bits) and its offset in it. On the heap in one array
 * (chunk 0) grown by half when full, or in mapped files ({@link MappedArena}); like {@link Slots},
 * one final class that asks where its keys are, so calls stay inlined for heap indexes.
 */
final class KeyArena {
  private static final int MAX_HEAP_BYTES = Integer.MAX_VALUE - 8;

  private byte[] heap;
  private int used;
  private final MappedArena mapped;

  private KeyArena(byte[] heap, MappedArena mapped) {
    this.heap = heap;
    this.mapped = mapped;
  }

  /** An empty arena on the heap. */
  static KeyArena onHeap() {
    return onHeap(0);
  }

  /** An empty arena on the heap with room for {@code bytes} (1 KiB at least). */
  static KeyArena onHeap(long bytes) {
    return new KeyArena(new byte[(int) Math.min(MAX_HEAP_BYTES, Math.max(1024, bytes))], null);
  }

  /** An empty arena in mapped files, in chunks of at most {@code chunkBytes} (but for a key). */
  static KeyArena mapped(int chunkBytes, SpillFiles files) {
    return new KeyArena(null, new MappedArena(chunkBytes, files));
  }

  /** Bytes of a key of {@code length} bytes in the arena, its length's varint at most. */
  static long recordBytes(int length) {
    return 5L + length;
  }

  /** Bytes of a key of {@code length} bytes in the arena, with its length's varint. */
  static long storedBytes(int length) {
    int varint = 1;
    for (int rest = length >>> 7; rest != 0; rest >>>= 7) {
      varint++;
    }
    return varint + (long) length;
  }

  /** Bytes the arena holds. */
  long bytes() {
    return mapped == null ? heap.length : mapped.bytes();
  }

  /**
   * Bytes the arena adds to store a key of {@code length} bytes; 0 when it has room. On the heap,
   * past what one array holds: more than any limit allows.
   */
  long growthFor(int length) {
    if (mapped != null) {
      return mapped.growthFor(length);
    }
    long needed = used + recordBytes(length);
    if (needed <= heap.length) {
      return 0;
    }
    long grown = Math.max((long) heap.length * 3 / 2, needed);
    return grown > MAX_HEAP_BYTES ? Long.MAX_VALUE / 2 : grown - heap.length;
  }

  /** Appends {@code key}; returns its reference. */
  long store(byte[] key) {
    if (mapped != null) {
      return mapped.store(key);
    }
    long growth = growthFor(key.length);
    if (growth > 0) {
      if (heap.length + growth > MAX_HEAP_BYTES) {
        throw new IllegalStateException("the key index's heap arena is full (2 GiB of keys)");
      }
      heap = Arrays.copyOf(heap, (int) (heap.length + growth));
    }
    int offset = used;
    int length = key.length;
    while ((length & ~0x7F) != 0) {
      heap[used++] = (byte) ((length & 0x7F) | 0x80);
      length >>>= 7;
    }
    heap[used++] = (byte) length;
    System.arraycopy(key, 0, heap, used, key.length);
    used += key.length;
    return offset;
  }

  /** Whether the key at {@code reference} is {@code key}. */
  boolean holds(long reference, byte[] key) {
    if (mapped != null) {
      return mapped.holds(reference, key);
    }
    int at = (int) reference;
    int length = 0;
    int shift = 0;
    byte b;
    do {
      b = heap[at++];
      length |= (b & 0x7F) << shift;
      shift += 7;
    } while ((b & 0x80) != 0);
    return length == key.length && Arrays.equals(heap, at, at + length, key, 0, length);
  }

  /** The length of the key at {@code reference}. */
  int length(long reference) {
    if (mapped != null) {
      return mapped.length(reference);
    }
    int at = (int) reference;
    int length = 0;
    int shift = 0;
    byte b;
    do {
      b = heap[at++];
      length |= (b & 0x7F) << shift;
      shift += 7;
    } while ((b & 0x80) != 0);
    return length;
  }

  /** The key at {@code reference}. */
  byte[] key(long reference) {
    if (mapped != null) {
      return mapped.key(reference);
    }
    int length = length(reference);
    int end = (int) reference + (int) storedBytes(length);
    return Arrays.copyOfRange(heap, end - length, end);
  }

  /** The same keys in mapped files, under the same references (this one is on the heap). */
  KeyArena toMapped(int chunkBytes, SpillFiles files) {
    return new KeyArena(null, new MappedArena(chunkBytes, files, heap, used));
  }

  /** Gives mapped memory back at once; the arena is not used after. */
  void release() {
    if (mapped != null) {
      mapped.release();
    }
  }
}
