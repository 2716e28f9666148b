package io.sluice.connect.upsert.index;

import java.nio.file.Path;

/**
 * How large one table's key index may grow, and where it goes past the heap.
 *
 * @param heapBytes the most heap bytes one table's index may hold ({@code key-index.max-bytes}); 0
 *     indexes no table
 * @param spillBytes the most bytes of memory-mapped files one table's index may hold once it is
 *     past {@code heapBytes} ({@code key-index.spill.max-bytes}); 0 never spills
 * @param spillDir where the mapped files are made ({@code key-index.spill.dir})
 */
public record KeyIndexLimits(long heapBytes, long spillBytes, Path spillDir) {
  /** No limit and no spilling: for tools that build an index to measure it. */
  public static final KeyIndexLimits UNBOUNDED_HEAP =
      new KeyIndexLimits(Long.MAX_VALUE, 0, Path.of(System.getProperty("java.io.tmpdir")));

  /** Whether a table may have an index at all. */
  public boolean indexes() {
    return heapBytes > 0;
  }

  /** Whether an index may go past the heap into mapped files. */
  public boolean spills() {
    return spillBytes > 0;
  }
}
