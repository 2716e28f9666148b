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

  @Override
  long store(byte[] key) {
    int needed = 5 + key.length;
    if (used + needed > arena.length) {
      long grown = Math.max((long) arena.length * 3 / 2, (long) used + needed);
      if (grown > MAX_BYTES) {
        throw new IllegalStateException("the key index's arena is full (2 GiB of keys)");
      }
      arena = Arrays.copyOf(arena, (int) grown);
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
}
