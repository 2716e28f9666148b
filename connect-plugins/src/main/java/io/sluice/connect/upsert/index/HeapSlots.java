package io.sluice.connect.upsert.index;

import java.util.Arrays;

/** {@link Slots} in parallel heap arrays. */
final class HeapSlots extends Slots {
  private final long[] keys;
  private final int[] hashes;
  private final int[] files;
  private final int[] positions;

  HeapSlots(int capacity, boolean longKeys) {
    keys = new long[capacity];
    hashes = longKeys ? null : new int[capacity];
    files = new int[capacity];
    Arrays.fill(files, KeyIndex.EMPTY);
    positions = new int[capacity];
  }

  @Override
  int capacity() {
    return keys.length;
  }

  @Override
  long bytes() {
    return bytes(keys.length, hashes == null);
  }

  @Override
  boolean mapped() {
    return false;
  }

  @Override
  long key(int slot) {
    return keys[slot];
  }

  @Override
  int hash(int slot) {
    return hashes == null ? 0 : hashes[slot];
  }

  @Override
  int file(int slot) {
    return files[slot];
  }

  @Override
  int position(int slot) {
    return positions[slot];
  }

  @Override
  void fill(int slot, long key, int hash) {
    keys[slot] = key;
    if (hashes != null) {
      hashes[slot] = hash;
    }
  }

  @Override
  void place(int slot, int file, int position) {
    files[slot] = file;
    positions[slot] = position;
  }

  @Override
  void file(int slot, int file) {
    files[slot] = file;
  }

  @Override
  void release() {}
}
