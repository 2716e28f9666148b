package io.sluice.connect.upsert.index;

/**
 * A set of longs by linear probing in a power-of-two table at most half full: no boxing, and one
 * array to probe, for the sets of keys a commit asks about for every row or event (a merge's batch
 * keys, the reduction of a batch to one event a key).
 */
public final class LongSet {
  private long[] slots = new long[64];
  private boolean[] used = new boolean[64];
  private int size;

  /** Adds {@code key}; true when it was not in the set yet. */
  public boolean add(long key) {
    if (2 * (size + 1) > slots.length) {
      grow();
    }
    int slot = find(key, slots, used);
    if (used[slot]) {
      return false;
    }
    used[slot] = true;
    slots[slot] = key;
    size++;
    return true;
  }

  public boolean contains(long key) {
    return used[find(key, slots, used)];
  }

  public int size() {
    return size;
  }

  /** The slot holding {@code key}, else the empty slot where it would go. */
  private static int find(long key, long[] slots, boolean[] used) {
    int mask = slots.length - 1;
    int slot = mix(key) & mask;
    while (used[slot] && slots[slot] != key) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private void grow() {
    long[] newSlots = new long[slots.length * 2];
    boolean[] newUsed = new boolean[newSlots.length];
    for (int i = 0; i < slots.length; i++) {
      if (used[i]) {
        int slot = find(slots[i], newSlots, newUsed);
        newUsed[slot] = true;
        newSlots[slot] = slots[i];
      }
    }
    slots = newSlots;
    used = newUsed;
  }

  /** The high bits of a multiplicative hash, so that sequential keys spread. */
  private static int mix(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }
}
