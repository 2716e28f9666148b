package io.sluice.tools.reconcile;

import io.sluice.dlq.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Walks two key-sorted row streams side by side once: counts and hashes each side and lists the
 * lines that differ. A key on one side only, or a key whose lines differ, is a difference; a key
 * twice on one side is one too (the second line finds no partner).
 */
final class SortedDiff {
  private static final long PROGRESS_EVERY = 200_000;

  private final int listLimit;
  private final LongConsumer progress;

  SortedDiff(int listLimit, LongConsumer progress) {
    this.listLimit = listLimit;
    this.progress = progress;
  }

  ReconcileResult diff(
      List<String> columns,
      List<String> primaryKey,
      Iterator<KeyedLine> source,
      Iterator<KeyedLine> actual) {
    Side expected = new Side();
    Side found = new Side();
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

  /** Counts and hashes the lines taken from one side. */
  private static final class Side {
    private final MessageDigest digest = Sha256.digest();
    private long rows;

    KeyedLine next(Iterator<KeyedLine> rows) {
      if (!rows.hasNext()) {
        return null;
      }
      KeyedLine row = rows.next();
      digest.update(row.line().getBytes(StandardCharsets.UTF_8));
      digest.update((byte) '\n');
      this.rows++;
      return row;
    }

    String sha256() {
      return Sha256.hex(digest);
    }
  }
}
