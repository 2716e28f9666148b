package io.sluice.connect.upsert.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A key index past its heap limit: in mapped files, then refused past its spill limit. */
class KeyIndexSpillTest {
  private static final int CHUNK_BYTES = 1024;

  @TempDir Path spillDir;

  /**
   * Seeded random puts, clears and renumberings, fed to an index that starts on a 4 KiB heap and
   * spills in 1 KiB chunks, and to a heap index: both answer every key of a map model alike.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aSpilledIndexAnswersEveryKeyAsAHeapIndexFedTheSameOperations(boolean longKeys) {
    Random random = new Random(longKeys ? 11 : 12);
    KeyIndex spilled =
        new KeyIndex(longKeys, 0, new KeyIndexLimits(4096, 1L << 30, spillDir), CHUNK_BYTES);
    KeyIndex heap = new KeyIndex(longKeys, 0, new KeyIndexLimits(Long.MAX_VALUE, 0, spillDir));
    Map<Key, int[]> model = new HashMap<>();
    List<Key> keys = new ArrayList<>();
    assertThat(spilled.spilledBytes()).as("starts on the heap").isZero();
    for (int round = 0; round < 10; round++) {
      for (int i = 0; i < 2_000; i++) {
        if (random.nextInt(10) == 0 && !keys.isEmpty()) {
          Key key = keys.get(random.nextInt(keys.size()));
          key.clear(spilled);
          key.clear(heap);
          model.put(key, new int[] {KeyIndex.ABSENT, 0});
          continue;
        }
        Key key = Key.random(longKeys, random);
        int file = random.nextInt(10) == 0 ? KeyIndex.ABSENT : random.nextInt(30);
        int position = random.nextInt(1 << 24);
        key.put(spilled, file, position);
        key.put(heap, file, position);
        if (model.put(key, new int[] {file, position}) == null) {
          keys.add(key);
        }
      }
      int[] renumbered = new int[30];
      for (int f = 0; f < 30; f++) {
        renumbered[f] = random.nextInt(5) == 0 ? KeyIndex.ABSENT : (f * 7) % 30;
      }
      spilled.renumberFiles(renumbered);
      heap.renumberFiles(renumbered);
      model.replaceAll((k, v) -> v[0] < 0 ? v : new int[] {renumbered[v[0]], v[1]});

      long live = model.values().stream().filter(v -> v[0] >= 0).count();
      assertThat(spilled.liveKeys()).as("round %d", round).isEqualTo(live);
      assertThat(heap.liveKeys()).isEqualTo(live);
      for (Map.Entry<Key, int[]> entry : model.entrySet()) {
        int[] expected = entry.getValue();
        for (KeyIndex index : List.of(spilled, heap)) {
          int slot = entry.getKey().find(index);
          if (expected[0] == KeyIndex.ABSENT) {
            // No slot (never placed, or re-packed away) or an absent one.
            assertThat(slot < 0 || index.file(slot) == KeyIndex.ABSENT)
                .as("round %d %s has no row", round, entry.getKey())
                .isTrue();
            continue;
          }
          assertThat(slot).as("round %d %s", round, entry.getKey()).isNotNegative();
          assertThat(index.file(slot)).as("%s", entry.getKey()).isEqualTo(expected[0]);
          assertThat(index.position(slot)).as("%s", entry.getKey()).isEqualTo(expected[1]);
        }
      }
      for (int i = 0; i < 200; i++) {
        Key never = Key.random(longKeys, random);
        if (!model.containsKey(never)) {
          assertThat(never.find(spilled)).as("%s was never put", never).isEqualTo(-1);
        }
      }
    }
    assertThat(spilled.spilledBytes())
        .as("past the heap limit, all in mapped files, over many chunks")
        .isEqualTo(spilled.bytes())
        .isGreaterThan(16L * CHUNK_BYTES);
    assertThat(heap.spilledBytes()).isZero();
    assertThat(spilled.pastLimits()).isNull();
  }

  @Test
  void pastHeapAndSpillLimitsAStrictIndexRefusesAndSaysWhichLimit() {
    KeyIndex index =
        new KeyIndex(false, 0, new KeyIndexLimits(1024, 16 << 10, spillDir), CHUNK_BYTES);
    index.strict(true);
    assertThatThrownBy(
            () -> {
              for (int i = 0; i < 100_000; i++) {
                index.put(("key-" + i).getBytes(StandardCharsets.UTF_8), 1, i);
              }
            })
        .isInstanceOf(KeyIndexLimitException.class)
        .hasMessage("above key-index.max-bytes (1024) and key-index.spill.max-bytes (16384)");
    assertThat(index.spilledBytes()).isPositive().isLessThanOrEqualTo(16 << 10);
    assertThat(index.pastLimits()).contains("key-index.spill.max-bytes (16384)");
  }

  @Test
  void withSpillingOffAStrictIndexRefusesAtTheHeapLimit() {
    KeyIndex index = new KeyIndex(true, 0, new KeyIndexLimits(1024, 0, spillDir), CHUNK_BYTES);
    index.strict(true);
    assertThatThrownBy(
            () -> {
              for (long key = 0; key < 100_000; key++) {
                index.put(key, 1, (int) key);
              }
            })
        .isInstanceOf(KeyIndexLimitException.class)
        .hasMessage(
            "above key-index.max-bytes (1024), and key-index.spill.max-bytes is 0 (no spilling)")
        .satisfies(e -> assertThat(((KeyIndexLimitException) e).keys()).isEqualTo(index.size()));
    assertThat(index.bytes()).isLessThanOrEqualTo(1024);
    assertThat(index.spilledBytes()).isZero();
    assertThat(spillDir).isEmptyDirectory();
  }

  /**
   * Not a limit, which only a configuration change cures: the directory may be back later ({@link
   * KeyIndexes} builds the index again then).
   */
  @Test
  void aSpillDirectoryThatCannotBeMadeStopsTheIndexAsAFailureThatMayPass() throws IOException {
    Path file = Files.createFile(spillDir.resolve("a-file"));
    KeyIndex index =
        new KeyIndex(true, 0, new KeyIndexLimits(1024, 1L << 30, file.resolve("spill")), 1024);
    index.strict(true);
    assertThatThrownBy(
            () -> {
              for (long key = 0; key < 100_000; key++) {
                index.put(key, 1, (int) key);
              }
            })
        .isInstanceOf(KeyIndexSpillException.class)
        .hasMessageStartingWith(
            "cannot use the spill directory " + file.resolve("spill") + " (key-index.spill.dir)")
        .hasMessageContaining("FileSystemException");
    assertThat(index.spilledBytes()).isZero();
    assertThat(index.pastLimits()).isNull();
  }

  /** The task's own commit has landed: it is applied whole, and the index says it should go. */
  @Test
  void pastTheLimitsANonStrictIndexKeepsEveryKeyAndSaysItShouldGo() {
    KeyIndex index = new KeyIndex(true, 0, new KeyIndexLimits(1024, 4096, spillDir), CHUNK_BYTES);
    for (long key = 0; key < 1_000; key++) {
      index.put(key * 31, 2, (int) key);
    }
    for (long key = 0; key < 1_000; key++) {
      assertThat(index.position(index.find(key * 31))).isEqualTo((int) key);
    }
    assertThat(index.pastLimits()).contains("key-index.spill.max-bytes (4096)");
    assertThat(index.spilledBytes()).isGreaterThan(4096);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void spillFilesAreDeletedAsSoonAsMappedAndTheDirectoryIsMadeIfMissing(boolean longKeys)
      throws IOException {
    Path dir = spillDir.resolve("made/here");
    KeyIndex index =
        new KeyIndex(longKeys, 0, new KeyIndexLimits(1024, 1L << 30, dir), CHUNK_BYTES);
    Random random = new Random(3);
    for (int i = 0; i < 20_000; i++) {
      Key.random(longKeys, random).put(index, 1, i);
    }
    assertThat(index.spilledBytes()).isGreaterThan(100L * CHUNK_BYTES);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
    index.release();
    assertThat(dir).isEmptyDirectory();
  }

  /**
   * A full disk (or no file descriptor left) while the third chunk of new slots is mapped: the two
   * mapped before it are released, not left holding their disk space and descriptors.
   */
  @Test
  void slotsThatCannotMapEveryChunkReleaseTheChunksMappedBeforeTheFailure() {
    AtomicInteger opened = new AtomicInteger();
    SpillFiles files =
        new SpillFiles(
            spillDir,
            file -> {
              if (opened.incrementAndGet() == 3) {
                throw new IOException("No space left on device");
              }
              return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            });

    assertThatThrownBy(() -> new MappedSlots(256, true, CHUNK_BYTES, files))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage("cannot map 1024 bytes of key index in " + spillDir + " (key-index.spill.dir)")
        .hasRootCauseMessage("No space left on device");

    assertThat(opened).hasValue(3);
    assertThat(files.mapped()).as("chunks still mapped").isZero();
    assertThat(spillDir).isEmptyDirectory();
  }

  /**
   * A spill file that cannot be made while the index grows is no limit: it throws a {@link
   * KeyIndexSpillException} (the table is indexed again later), and the index still places every
   * key it took before.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aSpillFileThatCannotBeMadeIsNoLimitAndLeavesTheIndexAsItWas(boolean longKeys) {
    AtomicInteger opened = new AtomicInteger();
    SpillFiles files =
        new SpillFiles(
            spillDir,
            file -> {
              if (opened.incrementAndGet() > 40) {
                throw new IOException("Too many open files");
              }
              return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            });
    KeyIndex index =
        new KeyIndex(longKeys, 0, new KeyIndexLimits(4096, 1L << 30, spillDir), CHUNK_BYTES, files);
    Random random = new Random(5);
    Map<Key, Integer> placed = new HashMap<>();
    assertThatThrownBy(
            () -> {
              for (int i = 0; i < 100_000; i++) {
                Key key = Key.random(longKeys, random);
                key.put(index, 1, i);
                placed.put(key, i);
              }
            })
        .isInstanceOf(KeyIndexSpillException.class)
        .hasMessageContaining("key-index.spill.dir) (java.io.IOException: Too many open files)");
    assertThat(index.pastLimits()).isNull();
    placed.forEach(
        (key, position) ->
            assertThat(index.position(key.find(index))).as("%s", key).isEqualTo(position));
    index.release();
    assertThat(files.mapped()).isZero();
  }

  /** A long key or a byte key of 1 to 300 bytes (past one varint byte, past a chunk sometimes). */
  private record Key(long value, String bytes) {
    static Key random(boolean longKeys, Random random) {
      if (longKeys) {
        return new Key(random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(20_000), null);
      }
      int id = random.nextInt(20_000);
      String pad = random.nextInt(500) == 0 ? "p".repeat(1_500) : "p".repeat(id % 300);
      return new Key(0, id + pad);
    }

    void put(KeyIndex index, int file, int position) {
      if (bytes == null) {
        index.put(value, file, position);
      } else {
        index.put(bytes.getBytes(StandardCharsets.UTF_8), file, position);
      }
    }

    int find(KeyIndex index) {
      return bytes == null ? index.find(value) : index.find(bytes.getBytes(StandardCharsets.UTF_8));
    }

    void clear(KeyIndex index) {
      int slot = find(index);
      if (slot >= 0) {
        index.clear(slot);
      }
    }

    @Override
    public String toString() {
      return bytes == null ? "key " + value : "key of " + bytes.length() + " bytes";
    }
  }
}
