package io.sluice.connect.upsert.index;

import static io.sluice.connect.upsert.index.KeyTable.FIRST_KEY;
import static io.sluice.connect.upsert.index.KeyTable.ID;
import static io.sluice.connect.upsert.index.KeyTable.KEY;
import static io.sluice.connect.upsert.index.KeyTable.key;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** A task's key indexes of a table of Parquet files on Iceberg's in-memory catalog. */
class KeyIndexesTest {
  @TempDir Path spillDir;
  private final KeyTable table = new KeyTable();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final AtomicInteger builds = new AtomicInteger();

  @BeforeEach
  void captureLogs() {
    logs.start();
    ((Logger) LoggerFactory.getLogger(KeyIndexes.class)).addAppender(logs);
  }

  @AfterEach
  void closeCatalog() throws IOException {
    ((Logger) LoggerFactory.getLogger(KeyIndexes.class)).detachAppender(logs);
    table.close();
  }

  @Test
  void anIndexPastTheHeapLimitSpillsAndPlacesEveryKey() {
    table.append(0, 5_000);
    KeyIndexes indexes = new KeyIndexes(new KeyIndexLimits(4096, 64L << 20, spillDir));

    TableKeyIndex index = current(indexes).orElseThrow();

    assertThat(index.keys()).isEqualTo(5_000);
    assertThat(index.spilledBytes()).isPositive().isLessThanOrEqualTo(index.bytes());
    for (long key = 0; key < 5_000; key++) {
      assertThat(index.locate(key(key))).as("key %d", key).isNotNull();
      assertThat(index.locate(key(key)).position()).isEqualTo(key);
    }
    assertThat(index.locate(key(-1))).isNull();
    assertThat(spillDir).isEmptyDirectory();
    assertThat(infos())
        .singleElement()
        .asString()
        .contains("5000 keys", index.spilledBytes() + " of them in mapped files");
  }

  @Test
  void anIndexPastTheHeapAndSpillLimitsIsRefusedWithOneWarningAndNotBuiltAgain() {
    table.append(0, 5_000);
    KeyIndexes indexes = new KeyIndexes(new KeyIndexLimits(4096, 16 << 10, spillDir));

    assertThat(current(indexes)).isEmpty();
    assertThat(current(indexes)).isEmpty();

    assertThat(builds).as("refused while building: no build reported").hasValue(0);
    assertThat(warnings())
        .singleElement()
        .asString()
        .startsWith("The key index of shop.orders_current reached ")
        .contains(
            "above key-index.max-bytes (4096) and key-index.spill.max-bytes (16384)",
            "Raise key-index.spill.max-bytes",
            spillDir.toString())
        .doesNotContain(String.valueOf(FIRST_KEY).substring(0, 6));
  }

  @Test
  void anIndexCaughtUpPastItsLimitsIsDroppedWithAWarning() {
    table.append(0, 100);
    KeyIndexes indexes = new KeyIndexes(new KeyIndexLimits(4096, 16 << 10, spillDir));
    assertThat(current(indexes)).isPresent();

    table.append(100, 5_000);

    assertThat(current(indexes)).isEmpty();
    assertThat(indexes.held(ID)).isEmpty();
    assertThat(builds).hasValue(1);
    assertThat(warnings())
        .singleElement()
        .asString()
        .contains("key-index.spill.max-bytes (16384)", "the table gets no key index");
  }

  @Test
  void withSpillingOffAnIndexPastTheHeapLimitIsRefused() {
    table.append(0, 5_000);
    KeyIndexes indexes = new KeyIndexes(new KeyIndexLimits(4096, 0, spillDir));

    assertThat(current(indexes)).isEmpty();

    assertThat(warnings())
        .singleElement()
        .asString()
        .contains("above key-index.max-bytes (4096), and key-index.spill.max-bytes is 0");
    assertThat(spillDir).isEmptyDirectory();
  }

  /**
   * A spill file that cannot be made (the disk full for a moment, no file descriptor left) while
   * the index is built: that batch goes by equality deletes with a warning, and the index is built
   * again at the next batch; after a second failure in a row, at the second batch after it.
   */
  @Test
  void aSpillFileThatCannotBeMadeFallsBackForTheBatchAndTheIndexIsBuiltAgainLater() {
    table.append(0, 100);
    KeyIndexLimits limits = new KeyIndexLimits(1, 64L << 20, spillDir);
    AtomicInteger attempts = new AtomicInteger();
    AtomicInteger failing = new AtomicInteger(1);
    KeyIndexes indexes =
        new KeyIndexes(
            limits,
            (t, snapshot, keySchema, l) -> {
              attempts.incrementAndGet();
              if (failing.getAndDecrement() > 0) {
                // What the index throws when its first spill file cannot be made.
                new KeyIndex(true, 100, l, 1024, new SpillFiles(spillDir, file -> fullDisk()));
              }
              return TableKeyIndex.build(t, snapshot, keySchema, l);
            });

    assertThat(current(indexes)).as("the failed batch").isEmpty();
    assertThat(warnings())
        .singleElement()
        .asString()
        .startsWith("The key index of shop.orders_current could not map a spill file")
        .contains("No space left on device", "equality deletes", "built again at the next batch");
    assertThat(current(indexes)).as("the next batch").isPresent();
    assertThat(attempts).hasValue(2);

    indexes.forget(ID);
    failing.set(2);
    assertThat(current(indexes)).isEmpty();
    assertThat(current(indexes)).isEmpty();
    assertThat(attempts).hasValue(4);
    assertThat(warnings().get(2)).contains("built again in 2 batches");
    assertThat(current(indexes)).as("a batch skipped").isEmpty();
    assertThat(attempts).hasValue(4);
    assertThat(current(indexes)).isPresent();
    assertThat(attempts).hasValue(5);
  }

  /**
   * The spill directory is unusable for a while (replaced by a plain file, a volume gone): the
   * index cannot be built, its batch goes by equality deletes, and once the directory is back the
   * index is built again, without a restart.
   */
  @Test
  void aSpillDirectoryUnusableForAWhileLeavesTheTableIndexedOnceItIsBack() throws IOException {
    table.append(0, 100);
    Path dir = spillDir.resolve("spill");
    KeyIndexes indexes = new KeyIndexes(new KeyIndexLimits(1, 64L << 20, dir));
    Files.writeString(dir, "not a directory");

    assertThat(current(indexes)).as("while the directory is a file").isEmpty();
    assertThat(warnings())
        .singleElement()
        .asString()
        .startsWith("The key index of shop.orders_current could not map a spill file")
        .contains("cannot use the spill directory " + dir, "built again at the next batch");

    Files.delete(dir);
    Files.createDirectory(dir);
    assertThat(current(indexes)).as("once it is a directory again").isPresent();
    assertThat(builds).hasValue(1);
  }

  private static FileChannel fullDisk() throws IOException {
    throw new IOException("No space left on device");
  }

  private Optional<TableKeyIndex> current(KeyIndexes indexes) {
    return indexes.current(ID, table.table(), KEY, (id, index, nanos) -> builds.incrementAndGet());
  }

  private List<String> warnings() {
    return messages(Level.WARN);
  }

  private List<String> infos() {
    return messages(Level.INFO);
  }

  private List<String> messages(Level level) {
    return logs.list.stream()
        .filter(e -> e.getLevel() == level)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }
}
