package io.sluice.tools.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExternalSorterTest {
  @TempDir Path dir;

  @Test
  void spilledRunsMergeIntoKeyOrderAndAreDeletedOnClose() throws Exception {
    List<Long> ids = new ArrayList<>(LongStream.rangeClosed(1, 2_500).boxed().toList());
    Collections.shuffle(ids, new Random(42));
    List<Long> sorted = new ArrayList<>();
    try (ExternalSorter sorter = new ExternalSorter(dir, 100)) {
      for (long id : ids) {
        sorter.add(new KeyedLine(SortKey.of(id), "{\"id\":\"" + id + "\",\"t\":\"é\"}"));
      }
      assertThat(Files.list(dir).count()).as("runs spilled").isEqualTo(25);
      Iterator<KeyedLine> it = sorter.sorted();
      while (it.hasNext()) {
        KeyedLine row = it.next();
        assertThat(row.line()).contains("é");
        sorted.add((Long) row.key().values()[0]);
      }
    }
    assertThat(sorted).isSortedAccordingTo(Long::compare).hasSize(2_500);
    assertThat(Files.list(dir).count()).as("runs deleted").isZero();
  }

  @Test
  void compositeKeysSurviveSpillingAndMergeByEveryKeyColumn() {
    List<long[]> keys = new ArrayList<>();
    for (long order = 1; order <= 30; order++) {
      for (long line = 1; line <= 20; line++) {
        keys.add(new long[] {order, line});
      }
    }
    Collections.shuffle(keys, new Random(7));
    List<String> merged = new ArrayList<>();
    try (ExternalSorter sorter = new ExternalSorter(dir, 50)) {
      for (long[] k : keys) {
        sorter.add(new KeyedLine(SortKey.of(k[0], k[1]), k[0] + "/" + k[1]));
      }
      sorter.sorted().forEachRemaining(r -> merged.add(r.line()));
    }
    assertThat(merged).hasSize(600).doesNotHaveDuplicates();
    assertThat(merged.subList(0, 3)).containsExactly("1/1", "1/2", "1/3");
    assertThat(merged.subList(19, 22)).containsExactly("1/20", "2/1", "2/2");
    assertThat(merged.get(599)).isEqualTo("30/20");
  }

  @Test
  void fewRowsStayInMemory() {
    try (ExternalSorter sorter = new ExternalSorter(dir, 100)) {
      sorter.add(new KeyedLine(SortKey.of("b"), "b"));
      sorter.add(new KeyedLine(SortKey.of("a"), "a"));
      List<String> lines = new ArrayList<>();
      sorter.sorted().forEachRemaining(r -> lines.add(r.line()));
      assertThat(lines).containsExactly("a", "b");
    }
  }
}
