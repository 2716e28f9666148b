package io.sluice.connect.upsert.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Key churn (queue, session and outbox tables): keys inserted, updated, then deleted for good, and
 * ever new ones inserted. The index answers as a map of the live keys does, and its bytes stay
 * bounded by the live keys, however many distinct keys it has seen.
 */
class KeyIndexChurnTest {
  /**
   * What an index of few keys may hold beyond 64 bytes per live key: before it re-packs it needs
   * {@link KeyIndex#MIN_ABSENT_TO_REPACK} absent keys, whose slots a small index may hold.
   */
  private static final long SMALL_INDEX_BYTES = 20L * 20 * KeyIndex.MIN_ABSENT_TO_REPACK;

  private static final int OPERATIONS = 200_000;
  private static final int CHECK_EVERY = 5_000;

  @TempDir Path spillDir;

  enum Storage {
    HEAP,
    /** Spills past a 64 KiB heap, in chunks of 16 KiB (and may come back to the heap). */
    SPILLED,
    /** Mapped from the first key on (a heap limit of 1 byte), in chunks of 16 KiB. */
    MAPPED;

    KeyIndex index(boolean longKeys, Path spillDir) {
      return switch (this) {
        case HEAP -> new KeyIndex(longKeys, 0, new KeyIndexLimits(Long.MAX_VALUE, 0, spillDir));
        case SPILLED ->
            new KeyIndex(longKeys, 0, new KeyIndexLimits(64 << 10, 1L << 30, spillDir), 16 << 10);
        case MAPPED ->
            new KeyIndex(longKeys, 0, new KeyIndexLimits(1, 1L << 30, spillDir), 16 << 10);
      };
    }
  }

  @ParameterizedTest
  @CsvSource({"HEAP, 5000", "SPILLED, 5000", "MAPPED, 5000", "HEAP, 20", "MAPPED, 20"})
  void longKeysUnderChurnAgreeWithAMapAndStayWithin64BytesPerLiveKey(Storage storage, int live) {
    Churn churn = new Churn(storage.index(true, spillDir), true, new Random(live * 31L));
    for (int op = 1; op <= OPERATIONS; op++) {
      churn.step(live);
      if (op % CHECK_EVERY == 0) {
        churn.assertAgrees(op);
        assertThat(churn.index.bytes())
            .as("op %d: %d live keys, %d with a slot", op, churn.live(), churn.index.size())
            .isLessThanOrEqualTo(64L * churn.live() + SMALL_INDEX_BYTES);
      }
    }
    assertThat(churn.inserted).as("distinct keys seen").isGreaterThan(10L * live);
    assertThat(churn.index.pastLimits()).isNull();
    churn.index.release();
  }

  /**
   * Byte keys of 24 bytes: at rest at most 20 bytes of slot per 0.375 key and the key with its
   * length in an arena grown by half (90 bytes per key); under churn at most 4 slots and 3 keys'
   * bytes per live key (absent keys never outnumber live ones).
   */
  @ParameterizedTest
  @CsvSource({"HEAP, 5000", "SPILLED, 5000", "MAPPED, 5000"})
  void byteKeysUnderChurnAgreeWithAMapAndStayBoundedByTheLiveKeys(Storage storage, int live) {
    Churn churn = new Churn(storage.index(false, spillDir), false, new Random(live * 37L));
    for (int op = 1; op <= OPERATIONS; op++) {
      churn.step(live);
      if (op % CHECK_EVERY == 0) {
        churn.assertAgrees(op);
        assertThat(churn.index.bytes())
            .as("op %d: %d live keys, %d with a slot", op, churn.live(), churn.index.size())
            .isLessThanOrEqualTo((4L * 20 + 3L * 25) * churn.live() + 2 * SMALL_INDEX_BYTES);
      }
    }
    assertThat(churn.index.pastLimits()).isNull();
    churn.index.release();
  }

  /** Ever new keys inserted, live ones updated and deleted, around a number of live keys. */
  private static final class Churn {
    final KeyIndex index;
    final boolean longKeys;
    final Random random;
    final Map<Long, int[]> model = new HashMap<>();
    final List<Long> liveList = new ArrayList<>();
    final Map<Long, Integer> liveAt = new HashMap<>();
    final List<Long> deleted = new ArrayList<>();
    long inserted;

    Churn(KeyIndex index, boolean longKeys, Random random) {
      this.index = index;
      this.longKeys = longKeys;
      this.random = random;
    }

    int live() {
      return liveList.size();
    }

    void step(int targetLive) {
      int roll = random.nextInt(10);
      boolean insert = liveList.isEmpty() || (live() < targetLive ? roll < 5 : roll < 3);
      if (insert) {
        long key = inserted++ * 0x9E3779B97F4A7C15L;
        place(key);
        liveAt.put(key, liveList.size());
        liveList.add(key);
      } else if (roll < 6) {
        place(liveList.get(random.nextInt(liveList.size())));
      } else {
        long key = liveList.get(random.nextInt(liveList.size()));
        put(key, KeyIndex.ABSENT, 0);
        model.remove(key);
        int at = liveAt.remove(key);
        long last = liveList.remove(liveList.size() - 1);
        if (last != key) {
          liveList.set(at, last);
          liveAt.put(last, at);
        }
        if (deleted.size() < 10_000) {
          deleted.add(key);
        } else {
          deleted.set(random.nextInt(deleted.size()), key);
        }
      }
    }

    void place(long key) {
      int file = random.nextInt(100);
      int position = random.nextInt(1 << 24);
      put(key, file, position);
      model.put(key, new int[] {file, position});
    }

    void put(long key, int file, int position) {
      if (longKeys) {
        index.put(key, file, position);
      } else {
        index.put(bytes(key), file, position);
      }
    }

    int find(long key) {
      return longKeys ? index.find(key) : index.find(bytes(key));
    }

    /** 24 bytes: "session-" and 16 hex digits. */
    static byte[] bytes(long key) {
      return ("session-" + HexFormat.of().toHexDigits(key)).getBytes(StandardCharsets.UTF_8);
    }

    void assertAgrees(int op) {
      assertThat(index.liveKeys()).as("op %d", op).isEqualTo(model.size());
      model.forEach(
          (key, at) -> {
            int slot = find(key);
            assertThat(slot).as("op %d key %d", op, key).isNotNegative();
            assertThat(index.file(slot)).as("op %d key %d", op, key).isEqualTo(at[0]);
            assertThat(index.position(slot)).as("op %d key %d", op, key).isEqualTo(at[1]);
          });
      for (long key : deleted) {
        if (!model.containsKey(key)) {
          int slot = find(key);
          assertThat(slot < 0 || index.file(slot) == KeyIndex.ABSENT)
              .as("op %d: deleted key %d has no row", op, key)
              .isTrue();
        }
      }
    }
  }
}
