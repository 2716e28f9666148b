package io.sluice.connect.upsert.index;

import java.util.Arrays;

/**
 * Where each key's row is: key -> (file number, row position), in flat arrays so that a million
 * keys cost tens of megabytes, not the hundreds a map of objects would. A key is either a {@code
 * long} (a key of one int, long, date, time or timestamp column: stored in the slot itself) or the
 * bytes of its encoding ({@link KeyEncoder}), kept in one growing {@link KeyArena} with a 32-bit
 * hash per slot. Open addressing with linear probing; a key is never removed, only marked absent
 * ({@link #ABSENT}), so a deleted key that comes back takes its old slot. Not thread-safe.
 */
final class KeyIndex {
  /** The file number of a key that has no row. */
  static final int ABSENT = -1;

  /** The file number of a slot that has no key. */
  static final int EMPTY = -2;

  private static final double MAX_LOAD = 0.75;

  private final boolean longKeys;
  private Slots slots;
  private final KeyArena arena;
  private int size;

  /**
   * @param longKeys true when every key is a long ({@link #put(long, int, int)}), false when keys
   *     are byte encodings ({@link #put(byte[], int, int)})
   */
  KeyIndex(boolean longKeys, int expectedKeys) {
    this.longKeys = longKeys;
    int capacity = Integer.highestOneBit(Math.max(16, (int) (expectedKeys / MAX_LOAD) + 1) * 2 - 1);
    slots = new HeapSlots(capacity, longKeys);
    arena = longKeys ? null : new HeapArena();
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
    if (slots.file(slot) == EMPTY) {
      slots.fill(slot, key, 0);
      size++;
    }
    slots.place(slot, file, position);
    growIfFull();
  }

  void put(byte[] key, int file, int position) {
    int hash = hash(key);
    int slot = slotOf(key, hash);
    if (slots.file(slot) == EMPTY) {
      slots.fill(slot, arena.store(key), hash);
      size++;
    }
    slots.place(slot, file, position);
    growIfFull();
  }

  /** The slot of {@code key}, or -1 when it has none (then it has no row either). */
  int find(long key) {
    int slot = slotOf(key);
    return slots.file(slot) == EMPTY ? -1 : slot;
  }

  int find(byte[] key) {
    int slot = slotOf(key, hash(key));
    return slots.file(slot) == EMPTY ? -1 : slot;
  }

  int file(int slot) {
    return slots.file(slot);
  }

  int position(int slot) {
    return slots.position(slot);
  }

  /**
   * Gives every file a new number: {@code renumbered[old]}, or {@link #ABSENT} to forget the file
   * (its keys become absent).
   */
  void renumberFiles(int[] renumbered) {
    for (int slot = 0; slot < slots.capacity(); slot++) {
      int file = slots.file(slot);
      if (file >= 0) {
        slots.file(slot, renumbered[file]);
      }
    }
  }

  /** Marks the slot's key absent (its row was deleted, or its file removed). */
  void clear(int slot) {
    slots.place(slot, ABSENT, 0);
  }

  /** Bytes of heap the index holds (its slots and arena). */
  long bytes() {
    return slots.bytes() + (arena == null ? 0 : arena.bytes());
  }

  private int slotOf(long key) {
    int mask = slots.capacity() - 1;
    int slot = mix(Long.hashCode(key) ^ (int) (key >>> 17)) & mask;
    while (slots.file(slot) != EMPTY && slots.key(slot) != key) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private int slotOf(byte[] key, int hash) {
    int mask = slots.capacity() - 1;
    int slot = mix(hash) & mask;
    while (slots.file(slot) != EMPTY
        && !(slots.hash(slot) == hash && arena.holds(slots.key(slot), key))) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private void growIfFull() {
    if (size > slots.capacity() * MAX_LOAD) {
      grow();
    }
  }

  /** Rehashes into twice the slots. */
  private void grow() {
    int capacity = slots.capacity() * 2;
    Slots old = slots;
    slots = new HeapSlots(capacity, longKeys);
    int mask = capacity - 1;
    for (int i = 0; i < old.capacity(); i++) {
      int file = old.file(i);
      if (file == EMPTY) {
        continue;
      }
      long key = old.key(i);
      int hash = old.hash(i);
      int slot = mix(longKeys ? Long.hashCode(key) ^ (int) (key >>> 17) : hash) & mask;
      while (slots.file(slot) != EMPTY) {
        slot = (slot + 1) & mask;
      }
      slots.fill(slot, key, hash);
      slots.place(slot, file, old.position(i));
    }
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
