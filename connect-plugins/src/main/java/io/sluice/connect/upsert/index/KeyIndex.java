package io.sluice.connect.upsert.index;

import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Where each key's row is: key -> (file number, row position), in flat arrays so that a million
 * keys cost tens of megabytes, not the hundreds a map of objects would. A key is either a {@code
 * long} (a key of one int, long, date, time or timestamp column: stored in the slot itself) or the
 * bytes of its encoding ({@link KeyEncoder}), kept in one growing {@link KeyArena} with a 32-bit
 * hash per slot. Open addressing with linear probing; a deleted key is marked absent ({@link
 * #ABSENT}), so one that comes back takes its old slot, until absent keys outnumber live ones: then
 * the index re-packs, keeping the live keys only ({@link #resize}). So its bytes follow the live
 * keys, not every key it has seen (queue, session and outbox tables churn through keys). Not
 * thread-safe.
 *
 * <p>Its {@link Slots} and arena are on the heap while they fit {@link KeyIndexLimits#heapBytes()};
 * the growth that would pass it moves them to memory-mapped files ({@link SpillFiles}), where they
 * stay while they fit {@link KeyIndexLimits#spillBytes()} and the disk (a re-pack that fits the
 * heap again brings them back). Growth past both throws {@link KeyIndexLimitException} while the
 * index is {@link #strict} (built or caught up, so that an oversized index never materializes);
 * otherwise (the task's own commit, which has landed and must be applied whole) the index grows
 * where it is, and {@link #pastLimits()} says it should go. A spill file that cannot be made throws
 * {@link KeyIndexSpillException}, strict or not.
 */
final class KeyIndex {
  /** The file number of a key that has no row. */
  static final int ABSENT = -1;

  /** The file number of a slot that has no key. */
  static final int EMPTY = -2;

  /** What {@link #put} returns for a key that had no slot. */
  static final long NOWHERE = (long) EMPTY << 32;

  /** The most bytes of one chunk of mapped slots or keys (one mapped file). */
  static final int CHUNK_BYTES = 128 << 20;

  /** Absent keys an index holds at least before it re-packs. */
  static final int MIN_ABSENT_TO_REPACK = 256;

  private static final double MAX_LOAD = 0.75;
  // Not half: a re-packed index a quarter full would re-pack again at its next deleted key.
  private static final double REPACKED_LOAD = 0.6;
  private static final int MAX_CAPACITY = 1 << 30;

  private final boolean longKeys;
  private final KeyIndexLimits limits;
  private final int chunkBytes;
  private final SpillFiles spill;
  private Slots slots;
  private KeyArena arena;
  private int size;
  private int live;
  private int minAbsentToRepack = MIN_ABSENT_TO_REPACK;
  private boolean strict;
  private String pastLimits;

  /**
   * @param longKeys true when every key is a long ({@link #put(long, int, int)}), false when keys
   *     are byte encodings ({@link #put(byte[], int, int)})
   * @param expectedKeys keys to make room for (room for fewer when that would pass the limits)
   */
  KeyIndex(boolean longKeys, int expectedKeys, KeyIndexLimits limits) {
    this(longKeys, expectedKeys, limits, CHUNK_BYTES);
  }

  /** With mapped chunks of {@code chunkBytes} (tests cross chunk boundaries with small ones). */
  KeyIndex(boolean longKeys, int expectedKeys, KeyIndexLimits limits, int chunkBytes) {
    this(longKeys, expectedKeys, limits, chunkBytes, new SpillFiles(limits.spillDir()));
  }

  /** With its mapped memory from {@code spill} (tests fail it on purpose). */
  KeyIndex(
      boolean longKeys, int expectedKeys, KeyIndexLimits limits, int chunkBytes, SpillFiles spill) {
    this.longKeys = longKeys;
    this.limits = limits;
    this.chunkBytes = chunkBytes;
    this.spill = spill;
    int wanted = Integer.highestOneBit(Math.max(16, (int) (expectedKeys / MAX_LOAD) + 1) * 2 - 1);
    // The expected keys are a snapshot's row count, an estimate: room for fewer is made when room
    // for all would pass a limit, and growth decides.
    int capacity = largestWithin(wanted, limits.heapBytes());
    boolean heapFits = Slots.bytes(capacity, longKeys) <= limits.heapBytes();
    boolean mapped = false;
    if (capacity < wanted || !heapFits) {
      int spilled = largestWithin(wanted, limits.spillBytes());
      long spilledBytes = Slots.bytes(spilled, longKeys);
      String refusal = spillRefusal(spilledBytes, spilledBytes);
      if (refusal == null && (spilled > capacity || !heapFits)) {
        capacity = spilled;
        mapped = true;
      } else if (!heapFits) {
        pastLimits = refusal;
      }
    }
    slots = mapped ? mappedSlots(capacity) : Slots.onHeap(capacity, longKeys);
    if (!longKeys) {
      arena = mapped ? KeyArena.mapped(chunkBytes, spill) : KeyArena.onHeap();
    }
  }

  boolean longKeys() {
    return longKeys;
  }

  /** Keys that have a slot, absent ones included. */
  int size() {
    return size;
  }

  /** Keys that have a row (a file number). */
  int liveKeys() {
    return live;
  }

  /**
   * While {@code strict}, growth past the limits throws {@link KeyIndexLimitException}; otherwise
   * the index grows where it is and {@link #pastLimits()} says why it should go.
   */
  void strict(boolean strict) {
    this.strict = strict;
  }

  /** Why the index grew past its limits; null when it did not. */
  String pastLimits() {
    return pastLimits;
  }

  /**
   * Sets where {@code key}'s row is ({@code file} = {@link #ABSENT}: it has none).
   *
   * @return where it was: {@link #NOWHERE} when it had no slot, else its file number and position
   *     ({@link #fileOf}, {@link #positionOf})
   */
  long put(long key, int file, int position) {
    int slot = slotOf(key);
    int was = slots.file(slot);
    if (was == EMPTY) {
      if (file == ABSENT) {
        // A key without a slot has no row already.
        return NOWHERE;
      }
      slots.fill(slot, key, 0);
      size++;
    }
    long previous = was == EMPTY ? NOWHERE : at(was, slots.position(slot));
    slots.place(slot, file, position);
    placed(was, file);
    return previous;
  }

  long put(byte[] key, int file, int position) {
    int hash = hash(key);
    int slot = slotOf(key, hash);
    int was = slots.file(slot);
    if (was == EMPTY) {
      if (file == ABSENT) {
        return NOWHERE;
      }
      // Storing may move the slots to mapped files, each to the same slot.
      long reference = store(key);
      slots.fill(slot, reference, hash);
      size++;
    }
    long previous = was == EMPTY ? NOWHERE : at(was, slots.position(slot));
    slots.place(slot, file, position);
    placed(was, file);
    return previous;
  }

  /** The file number of a {@link #put}'s previous place. */
  static int fileOf(long previous) {
    return (int) (previous >> 32);
  }

  /** The row position of a {@link #put}'s previous place. */
  static int positionOf(long previous) {
    return (int) previous;
  }

  /** A place as {@link #put} returns it. */
  static long at(int file, int position) {
    return (long) file << 32 | (position & 0xFFFFFFFFL);
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
        int now = renumbered[file];
        slots.file(slot, now);
        if (now < 0) {
          live--;
        }
      }
    }
    resize();
  }

  /** Marks the slot's key absent (its row was deleted, or its file removed). */
  void clear(int slot) {
    int was = slots.file(slot);
    slots.place(slot, ABSENT, 0);
    placed(was, ABSENT);
  }

  /** Bytes the index holds (its slots and arena), on the heap or in mapped files. */
  long bytes() {
    return slots.bytes() + (arena == null ? 0 : arena.bytes());
  }

  /** The part of {@link #bytes()} in memory-mapped files. */
  long spilledBytes() {
    return slots.mapped() ? bytes() : 0;
  }

  /** Gives mapped files back at once (else at a GC); the index is not used after. */
  void release() {
    slots.release();
    if (arena != null) {
      arena.release();
    }
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

  /** Appends a byte key to the arena, moving the index to mapped files when the heap is full. */
  private long store(byte[] key) {
    long growth = arena.growthFor(key.length);
    if (growth > 0
        && !slots.mapped()
        && bytes() + growth > limits.heapBytes()
        && mayMap(bytes(), bytes())) {
      Slots mapped = mappedSlots(slots.capacity());
      slots.copyTo(mapped);
      slots = mapped;
      arena = mapping(() -> arena.toMapped(chunkBytes, spill));
      growth = arena.growthFor(key.length);
    }
    if (growth > 0 && slots.mapped()) {
      mayMap(bytes() + growth, growth);
      return mapping(() -> arena.store(key));
    }
    return arena.store(key);
  }

  /** Counts a slot's key that had row {@code was} and has {@code file}, then resizes. */
  private void placed(int was, int file) {
    if (was >= 0) {
      live--;
    }
    if (file >= 0) {
      live++;
    }
    resize();
  }

  /**
   * Re-packs the index when absent keys outnumber live ones, or the live keys fill less than a
   * quarter of the slots (half, for a full index about to double), once it holds {@link
   * #minAbsentToRepack} absent keys; else doubles a full index. So an index under key churn holds
   * at most 4 slots per live key (64 bytes of a long key) and one absent key per live one, plus the
   * slots of a small index; a re-pack of n slots follows n/20 changes at least, O(1) each.
   */
  private void resize() {
    int absent = size - live;
    boolean full = size > slots.capacity() * MAX_LOAD;
    if (absent >= minAbsentToRepack
        && (absent > live || live < slots.capacity() / (full ? 2 : 4))) {
      repack();
    }
    if (size > slots.capacity() * MAX_LOAD) {
      grow();
    }
  }

  /**
   * Rebuilds the slots (and arena) with the live keys only, at most {@link #REPACKED_LOAD} full: on
   * the heap when they fit its limit, else in new mapped files; the old ones are released. When the
   * new ones cannot be mapped (no room in the spill directory), the index stays as it is and tries
   * again at twice the absent keys.
   */
  private void repack() {
    int capacity = 16;
    while (live > capacity * REPACKED_LOAD) {
      capacity *= 2;
    }
    long keyBytes = arena == null ? 0 : liveKeyBytes();
    long bytes = Slots.bytes(capacity, longKeys) + keyBytes;
    boolean mapped = bytes > limits.heapBytes();
    if (mapped && !mayRepackMapped(bytes)) {
      if (slots.mapped()) {
        minAbsentToRepack = 2 * (size - live);
        return;
      }
      // Past its limits on the heap already (a non-strict growth): it shrinks where it is.
      mapped = false;
    }
    Slots to = null;
    KeyArena keys = null;
    try {
      to =
          mapped
              ? Slots.mapped(capacity, longKeys, chunkBytes, spill)
              : Slots.onHeap(capacity, longKeys);
      if (arena != null) {
        keys = mapped ? KeyArena.mapped(chunkBytes, spill) : KeyArena.onHeap(keyBytes);
      }
      int mask = capacity - 1;
      for (int i = 0; i < slots.capacity(); i++) {
        int file = slots.file(i);
        if (file < 0) {
          continue;
        }
        long key = slots.key(i);
        int hash = slots.hash(i);
        if (keys != null) {
          key = keys.store(arena.key(key));
        }
        int slot = mix(longKeys ? Long.hashCode(key) ^ (int) (key >>> 17) : hash) & mask;
        while (to.file(slot) != EMPTY) {
          slot = (slot + 1) & mask;
        }
        to.fill(slot, key, hash);
        to.place(slot, file, slots.position(i));
      }
    } catch (UncheckedIOException e) {
      // A spill file that cannot be made: the index goes on as it is.
      if (to != null) {
        to.release();
      }
      if (keys != null) {
        keys.release();
      }
      minAbsentToRepack = 2 * (size - live);
      return;
    }
    slots.release();
    slots = to;
    if (arena != null) {
      arena.release();
      arena = keys;
    }
    size = live;
    minAbsentToRepack = MIN_ABSENT_TO_REPACK;
  }

  /** Bytes of the live keys in the arena. */
  private long liveKeyBytes() {
    long bytes = 0;
    for (int i = 0; i < slots.capacity(); i++) {
      if (slots.file(i) >= 0) {
        bytes += KeyArena.storedBytes(arena.length(slots.key(i)));
      }
    }
    return bytes;
  }

  /** Rehashes into twice the slots, on the heap or in mapped files (the arena moved with them). */
  private void grow() {
    int capacity = slots.capacity() * 2;
    if (capacity > MAX_CAPACITY) {
      pastLimits = "it has the most slots an index can have (2^30)";
      throw new KeyIndexLimitException(size, bytes(), pastLimits);
    }
    long slotBytes = Slots.bytes(capacity, longKeys);
    long total = slotBytes + (arena == null ? 0 : arena.bytes());
    boolean mapped;
    if (slots.mapped()) {
      // Past the limits (not strict), a mapped index grows mapped all the same.
      mayMap(total, slotBytes);
      mapped = true;
    } else {
      mapped = total > limits.heapBytes() && mayMap(total, total);
    }
    Slots old = slots;
    slots = mapped ? mappedSlots(capacity) : Slots.onHeap(capacity, longKeys);
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
    old.release();
    if (mapped && arena != null && !old.mapped()) {
      arena = mapping(() -> arena.toMapped(chunkBytes, spill));
    }
  }

  private Slots mappedSlots(int capacity) {
    return mapping(() -> Slots.mapped(capacity, longKeys, chunkBytes, spill));
  }

  /**
   * Makes mapped memory: a spill file that cannot be made (a full disk, too many open files) stops
   * the index, strict or not, since its keys have nowhere to go; the index is left as it was before
   * the allocation (still sound), but is to be dropped, and may be built again later.
   *
   * @throws KeyIndexSpillException when the spill file cannot be made
   */
  private <T> T mapping(Supplier<T> allocation) {
    try {
      return allocation.get();
    } catch (UncheckedIOException e) {
      throw new KeyIndexSpillException(e);
    }
  }

  /**
   * Whether the index may hold {@code bytes} in all in mapped files, mapping {@code mapping} more:
   * within the spill limit and the disk's free space. When not, it is past its limits: that throws
   * while {@link #strict}.
   */
  private boolean mayMap(long bytes, long mapping) {
    String refusal = spillRefusal(bytes, mapping);
    if (refusal == null) {
      return true;
    }
    pastLimits = refusal;
    if (strict) {
      throw new KeyIndexLimitException(size, bytes, refusal);
    }
    return false;
  }

  /**
   * Why the index cannot hold {@code bytes} in mapped files, mapping more; null when it can.
   *
   * @throws KeyIndexSpillException when the spill directory cannot be used
   */
  private String spillRefusal(long bytes, long mapping) {
    if (!limits.spills()) {
      return "above key-index.max-bytes ("
          + limits.heapBytes()
          + "), and key-index.spill.max-bytes is 0 (no spilling)";
    }
    if (bytes > limits.spillBytes()) {
      return "above key-index.max-bytes ("
          + limits.heapBytes()
          + ") and key-index.spill.max-bytes ("
          + limits.spillBytes()
          + ")";
    }
    return mapping(() -> spill.refusal(mapping));
  }

  /**
   * Whether a re-pack may map {@code bytes}: not when a limit or the disk refuses, nor when the
   * spill directory cannot be used now (the index goes on as it is and re-packs later).
   */
  private boolean mayRepackMapped(long bytes) {
    try {
      return spillRefusal(bytes, bytes) == null;
    } catch (KeyIndexSpillException e) {
      return false;
    }
  }

  /**
   * The largest capacity up to {@code wanted} (16 at least) whose slots take at most {@code bytes}.
   */
  private int largestWithin(int wanted, long bytes) {
    int capacity = wanted;
    while (capacity > 16 && Slots.bytes(capacity, longKeys) > bytes) {
      capacity /= 2;
    }
    return capacity;
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
