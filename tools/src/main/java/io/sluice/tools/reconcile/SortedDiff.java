package io.sluice.tools.reconcile;

import io.sluice.dlq.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Walks two key-sorted row streams side by side once: counts and hashes each side, keeps each
 * side's first lines (the report's rows) and lists the lines that differ. A key on one side only,
 * or a key whose lines differ, is a difference; a key twice on one side is one too (the second line
 * finds no partner). Memory holds at most the two listing limits' lines, whatever the row count.
 */
final class SortedDiff {
  private static final long PROGRESS_EVERY = 200_000;

  private final int listLimit;
  private final int rowLimit;
  private final LongConsumer progress;

  /**
   * @param listLimit at most how many differing lines to keep per side
   * @param rowLimit at most how many lines to keep per side, in key order, as the report's rows
   */
  SortedDiff(int listLimit, int rowLimit, LongConsumer progress) {
    this.listLimit = listLimit;
    this.rowLimit = rowLimit;
    this.progress = progress;
  }

  ReconcileResult diff(
      List<String> columns,
      List<String> primaryKey,
      Iterator<KeyedLine> source,
      Iterator<KeyedLine> actual) {
    Side expected = new Side(rowLimit);
    Side found = new Side(rowLimit);
    List<String> missing = new ArrayList<>();
    List<String> unexpected = new ArrayList<>();
    long diffs = 0;
    long nextProgress = PROGRESS_EVERY;
    KeyedLine s = expected.next(source);
    KeyedLine a = found.next(actual);
    while (s != null || a != null) {
      int c = s == null ? 1 : a == null ? -1 : s.key().compareTo(a.key());
      if (c < 0) {
        diffs += note(missing, s);
        s = expected.next(source);
      } else if (c > 0) {
        diffs += note(unexpected, a);
        a = found.next(actual);
      } else {
        if (!s.line().equals(a.line())) {
          diffs += note(missing, s) + note(unexpected, a);
        }
        s = expected.next(source);
        a = found.next(actual);
      }
      long done = expected.rows + found.rows;
      if (done >= nextProgress) {
        progress.accept(done);
        nextProgress = done + PROGRESS_EVERY;
      }
    }
    return new ReconcileResult(
        columns,
        primaryKey,
        expected.rows,
        found.rows,
        expected.firstLines,
        found.firstLines,
        expected.sha256(),
        found.sha256(),
        missing,
        unexpected,
        diffs);
  }

  private int note(List<String> list, KeyedLine row) {
    if (list.size() < listLimit) {
      list.add(row.line());
    }
    return 1;
  }

  /** Counts and hashes the lines taken from one side and keeps the first of them. */
  private static final class Side {
    private final MessageDigest digest = Sha256.digest();
    private final int rowLimit;
    private final List<String> firstLines = new ArrayList<>();
    private long rows;

    Side(int rowLimit) {
      this.rowLimit = rowLimit;
    }

    KeyedLine next(Iterator<KeyedLine> rows) {
      if (!rows.hasNext()) {
        return null;
      }
      KeyedLine row = rows.next();
      digest.update(row.line().getBytes(StandardCharsets.UTF_8));
      digest.update((byte) '\n');
      if (firstLines.size() < rowLimit) {
        firstLines.add(row.line());
      }
      this.rows++;
      return row;
    }

    String sha256() {
      return Sha256.hex(digest);
    }
  }
}
