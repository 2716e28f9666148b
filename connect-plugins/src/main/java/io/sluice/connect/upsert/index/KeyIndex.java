package io.sluice.connect.upsert.index;

import java.util.Arrays;

/**
 * Where each key's row is: key -> (file number, row position), in flat arrays so that a million
 * keys cost tens of megabytes, not the hundreds a map of objects would. A key is either a {@code
 * long} (a key of one int, long, date, time or timestamp column: stored in the slot itself) or the
 * bytes of its encoding ({@link KeyEncoder}), kept in one growing byte arena with a 32-bit hash per
 * slot. Open addressing with linear probing; a key is never removed, only marked absent ({@link
 * #ABSENT}), so a deleted key that comes back takes its old slot. Not thread-safe.
 */
final class KeyIndex {
  /** The file number of a key that has no row. */
  static final int ABSENT = -1;

  private static final int EMPTY = -2;
  private static final double MAX_LOAD = 0.75;

  private final boolean longKeys;
  private long[] keys;
  private int[] hashes;
  private int[] files;
  private int[] positions;
  private int size;
  private byte[] arena;
  private int arenaUsed;

  /**
   * @param longKeys true when every key is a long ({@link #put(long, int, int)}), false when keys
   *     are byte encodings ({@link #put(byte[], int, int)})
   */
  KeyIndex(boolean longKeys, int expectedKeys) {
    this.longKeys = longKeys;
    int capacity = Integer.highestOneBit(Math.max(16, (int) (expectedKeys / MAX_LOAD) + 1) * 2 - 1);
    allocate(capacity);
    if (!longKeys) {
      arena = new byte[1024];
    }
  }

  private void allocate(int capacity) {
    keys = new long[capacity];
    files = new int[capacity];
    Arrays.fill(files, EMPTY);
    positions = new int[capacity];
    hashes = longKeys ? null : new int[capacity];
  }

  boolean longKeys() {
    return longKeys;
  }

  /** Keys that have a slot, absent ones included. */
  int size() {
    return size;
  }

  /** Sets where {@code key}'s row is ({@code file} = {@link #ABSENT}: it has none). */
  void put(long key, int file, int position) {
    int slot = slotOf(key);
    if (files[slot] == EMPTY) {
      keys[slot] = key;
      size++;
    }
    files[slot] = file;
    positions[slot] = position;
    growIfFull();
  }

  void put(byte[] key, int file, int position) {
    int hash = hash(key);
    int slot = slotOf(key, hash);
    if (files[slot] == EMPTY) {
      keys[slot] = store(key);
      hashes[slot] = hash;
      size++;
    }
    files[slot] = file;
    positions[slot] = position;
    growIfFull();
  }

  /** The slot of {@code key}, or -1 when it has none (then it has no row either). */
  int find(long key) {
    int slot = slotOf(key);
    return files[slot] == EMPTY ? -1 : slot;
  }

  int find(byte[] key) {
    int slot = slotOf(key, hash(key));
    return files[slot] == EMPTY ? -1 : slot;
  }

  int file(int slot) {
    return files[slot];
  }

  int position(int slot) {
    return positions[slot];
  }

  /**
   * Gives every file a new number: {@code renumbered[old]}, or {@link #ABSENT} to forget the file
   * (its keys become absent).
   */
  void renumberFiles(int[] renumbered) {
    for (int slot = 0; slot < files.length; slot++) {
      int file = files[slot];
      if (file >= 0) {
        files[slot] = renumbered[file];
      }
    }
  }

  /** Marks the slot's key absent (its row was deleted, or its file removed). */
  void clear(int slot) {
    files[slot] = ABSENT;
    positions[slot] = 0;
  }

  /** Bytes of heap the index holds (its arrays and arena). */
  long bytes() {
    long slots = keys.length;
    long perSlot = 8 + 4 + 4 + (longKeys ? 0 : 4);
    return slots * perSlot + (arena == null ? 0 : arena.length);
  }

  private int slotOf(long key) {
    int mask = keys.length - 1;
    int slot = mix(Long.hashCode(key) ^ (int) (key >>> 17)) & mask;
    while (files[slot] != EMPTY && keys[slot] != key) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private int slotOf(byte[] key, int hash) {
    int mask = keys.length - 1;
    int slot = mix(hash) & mask;
    while (files[slot] != EMPTY && !(hashes[slot] == hash && storedEquals(keys[slot], key))) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private void growIfFull() {
    if (size <= keys.length * MAX_LOAD) {
      return;
    }
    long[] oldKeys = keys;
    int[] oldHashes = hashes;
    int[] oldFiles = files;
    int[] oldPositions = positions;
    allocate(oldKeys.length * 2);
    int mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldFiles[i] == EMPTY) {
        continue;
      }
      int slot =
          mix(longKeys ? Long.hashCode(oldKeys[i]) ^ (int) (oldKeys[i] >>> 17) : oldHashes[i])
              & mask;
      while (files[slot] != EMPTY) {
        slot = (slot + 1) & mask;
      }
      keys[slot] = oldKeys[i];
      files[slot] = oldFiles[i];
      positions[slot] = oldPositions[i];
      if (!longKeys) {
        hashes[slot] = oldHashes[i];
      }
    }
  }

  /** Appends {@code key} to the arena as a length (varint) and its bytes; returns its offset. */
  private long store(byte[] key) {
    int needed = 5 + key.length;
    if (arenaUsed + needed > arena.length) {
      long grown = Math.max((long) arena.length * 3 / 2, (long) arenaUsed + needed);
      if (grown > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException("the key index's arena is full (2 GiB of keys)");
      }
      arena = Arrays.copyOf(arena, (int) grown);
    }
    int offset = arenaUsed;
    int length = key.length;
    while ((length & ~0x7F) != 0) {
      arena[arenaUsed++] = (byte) ((length & 0x7F) | 0x80);
      length >>>= 7;
    }
    arena[arenaUsed++] = (byte) length;
    System.arraycopy(key, 0, arena, arenaUsed, key.length);
    arenaUsed += key.length;
    return offset;
  }

  private boolean storedEquals(long offset, byte[] key) {
    int at = (int) offset;
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

  private static int hash(byte[] key) {
    return Arrays.hashCode(key);
  }

  /** Spreads a hash over the low bits (murmur3's finalizer), so linear probing stays short. */
  private static int mix(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
