package io.sluice.connect.upsert.index;

import java.util.Arrays;

/** A {@link KeyArena} in one heap array, grown by half when full (its references are offsets). */
final class HeapArena extends KeyArena {
  private static final int MAX_BYTES = Integer.MAX_VALUE - 8;

  private byte[] arena = new byte[1024];
  private int used;

  @Override
  long bytes() {
    return arena.length;
  }

  /** {@inheritDoc} Past what one array holds: more than any limit allows. */
  @Override
  long growthFor(int length) {
    long needed = used + recordBytes(length);
    if (needed <= arena.length) {
      return 0;
    }
    long grown = Math.max((long) arena.length * 3 / 2, needed);
    return grown > MAX_BYTES ? Long.MAX_VALUE / 2 : grown - arena.length;
  }

  @Override
  long store(byte[] key) {
    long growth = growthFor(key.length);
    if (growth > 0) {
      if (arena.length + growth > MAX_BYTES) {
        throw new IllegalStateException("the key index's heap arena is full (2 GiB of keys)");
      }
      arena = Arrays.copyOf(arena, (int) (arena.length + growth));
    }
    int offset = used;
    int length = key.length;
    while ((length & ~0x7F) != 0) {
      arena[used++] = (byte) ((length & 0x7F) | 0x80);
      length >>>= 7;
    }
    arena[used++] = (byte) length;
    System.arraycopy(key, 0, arena, used, key.length);
    used += key.length;
    return offset;
  }

  @Override
  boolean holds(long reference, byte[] key) {
    int at = (int) reference;
    int length = 0;
    int shift = 0;
    byte b;
    do {
      b = arena[at++];
      length |= (b & 0x7F) << shift;
      shift += 7;
    } while ((b & 0x80) != 0);
    return length == key.length && Arrays.equals(arena, at, at + length, key, 0, length);
  }

  /** The same keys in mapped files, under the same references. */
  MappedArena toMapped(int chunkBytes, SpillFiles files) {
    return new MappedArena(chunkBytes, files, arena, used);
  }

  @Override
  void release() {}
}
