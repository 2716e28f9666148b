package io.sluice.connect.upsert.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every case on both storages: the heap, and mapped files from the first key on. */
class KeyIndexTest {
  @TempDir Path spillDir;

  enum Storage {
    HEAP {
      @Override
      KeyIndex index(boolean longKeys, int expectedKeys, Path spillDir) {
        return new KeyIndex(
            longKeys, expectedKeys, new KeyIndexLimits(Long.MAX_VALUE, 0, spillDir));
      }
    },
    /** Mapped from the start (a heap limit of 1 byte), in chunks of 64 KiB. */
    MAPPED {
      @Override
      KeyIndex index(boolean longKeys, int expectedKeys, Path spillDir) {
        return new KeyIndex(
            longKeys, expectedKeys, new KeyIndexLimits(1, 1L << 30, spillDir), 64 << 10);
      }
    };

    abstract KeyIndex index(boolean longKeys, int expectedKeys, Path spillDir);

    void assertHolds(KeyIndex index) {
      assertThat(index.spilledBytes()).isEqualTo(this == MAPPED ? index.bytes() : 0);
      assertThat(index.pastLimits()).isNull();
    }
  }

  /** Seeded random puts, absences and renumberings against a map; every key checked each round. */
  @ParameterizedTest
  @EnumSource(Storage.class)
  void longKeysAgreeWithAMapThroughGrowthAndRenumbering(Storage storage) {
    for (int seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      KeyIndex index = storage.index(true, random.nextInt(50), spillDir);
      Map<Long, int[]> model = new HashMap<>();
      for (int round = 0; round < 5; round++) {
        for (int i = 0; i < 2_000; i++) {
          // A small key space, so keys repeat; negative and huge keys too.
          long key = random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(1_500) - 700;
          int file = random.nextInt(10) == 0 ? KeyIndex.ABSENT : random.nextInt(40);
          int position = random.nextInt(1 << 20);
          index.put(key, file, position);
          model.put(key, new int[] {file, position});
        }
        int[] renumbered = new int[40];
        for (int f = 0; f < 40; f++) {
          renumbered[f] = random.nextInt(4) == 0 ? KeyIndex.ABSENT : 39 - f;
        }
        index.renumberFiles(renumbered);
        model.replaceAll(
            (k, v) -> v[0] == KeyIndex.ABSENT ? v : new int[] {renumbered[v[0]], v[1]});
        assertThat(index.liveKeys())
            .as("seed %d", seed)
            .isEqualTo(model.values().stream().filter(v -> v[0] >= 0).count());
        for (Map.Entry<Long, int[]> entry : model.entrySet()) {
          int slot = index.find(entry.getKey());
          if (entry.getValue()[0] == KeyIndex.ABSENT) {
            // An absent key has no slot (never placed, or re-packed away) or an absent one.
            assertThat(slot < 0 || index.file(slot) == KeyIndex.ABSENT)
                .as("seed %d key %d has no row", seed, entry.getKey())
                .isTrue();
            continue;
          }
          assertThat(slot).as("seed %d key %d", seed, entry.getKey()).isNotNegative();
          assertThat(index.file(slot)).isEqualTo(entry.getValue()[0]);
          assertThat(index.position(slot)).isEqualTo(entry.getValue()[1]);
        }
        assertThat(index.find(Long.MIN_VALUE + 7)).isEqualTo(-1);
      }
      storage.assertHolds(index);
    }
  }

  @ParameterizedTest
  @EnumSource(Storage.class)
  void byteKeysAgreeWithAMapAndDifferByLength(Storage storage) {
    Random random = new Random(7);
    KeyIndex index = storage.index(false, 0, spillDir);
    Map<String, Integer> model = new HashMap<>();
    for (int i = 0; i < 50_000; i++) {
      // Keys that are prefixes of each other, and long ones past one varint byte of length.
      String key =
          "k".repeat(random.nextInt(3) == 0 ? 130 : 1) + random.nextInt(20_000) + "x".repeat(i % 3);
      int position = random.nextInt(1 << 30);
      index.put(key.getBytes(StandardCharsets.UTF_8), 3, position);
      model.put(key, position);
    }
    assertThat(index.size()).isEqualTo(model.size());
    model.forEach(
        (key, position) -> {
          int slot = index.find(key.getBytes(StandardCharsets.UTF_8));
          assertThat(slot).as(key).isNotNegative();
          assertThat(index.position(slot)).as(key).isEqualTo(position);
        });
    assertThat(index.find("never-put".getBytes(StandardCharsets.UTF_8))).isEqualTo(-1);
    assertThat(index.find(new byte[0])).isEqualTo(-1);
    storage.assertHolds(index);
  }

  /**
   * "Aa" and "BB" hash alike: 512 keys of one hash and length, told apart past their first byte.
   */
  @ParameterizedTest
  @EnumSource(Storage.class)
  void byteKeysOfOneHashAndLengthAreToldApart(Storage storage) {
    KeyIndex index = storage.index(false, 0, spillDir);
    List<byte[]> keys = new ArrayList<>();
    for (int bits = 0; bits < 512; bits++) {
      StringBuilder key = new StringBuilder("k");
      for (int bit = 0; bit < 9; bit++) {
        key.append((bits >> bit & 1) == 0 ? "Aa" : "BB");
      }
      keys.add(key.toString().getBytes(StandardCharsets.UTF_8));
    }
    assertThat(keys).extracting(Arrays::hashCode).containsOnly(Arrays.hashCode(keys.get(0)));
    for (int i = 0; i < keys.size(); i++) {
      index.put(keys.get(i), 1, i);
    }
    assertThat(index.size()).isEqualTo(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      assertThat(index.position(index.find(keys.get(i)))).isEqualTo(i);
    }
    storage.assertHolds(index);
  }

  @ParameterizedTest
  @EnumSource(Storage.class)
  void aMillionLongKeysFitInUnder64BytesEach(Storage storage) {
    KeyIndex index = storage.index(true, 0, spillDir);
    for (long key = 0; key < 1_000_000; key++) {
      index.put(key * 7919, (int) (key % 50), (int) key);
    }
    assertThat(index.size()).isEqualTo(1_000_000);
    assertThat(index.bytes() / 1_000_000.0).isLessThan(64);
    assertThat(index.position(index.find(7919L * 123_456))).isEqualTo(123_456);
    storage.assertHolds(index);
  }
}
