package io.sluice.spark;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's {@code rewrite_data_files} procedure called on one table again and again, on its own
 * thread, until stopped: what a scheduled compaction job does, only back to back. Odd calls use the
 * default strategy; even ones name {@code binpack} and a {@code where} filter.
 */
final class RewriteLoop implements AutoCloseable {
  /**
   * The options docs/design.md "Compaction by Spark" gives: rewrite-all (every file, however few),
   * the starting sequence number (equality deletes committed meanwhile keep applying to the new
   * files), partial progress (a file group that conflicts fails alone), dangling deletes removed.
   */
  static final String OPTIONS =
      "map('rewrite-all', 'true', 'use-starting-sequence-number', 'true',"
          + " 'partial-progress.enabled', 'true', 'remove-dangling-deletes', 'true')";

  /**
   * One call's result row, and how long it took. A call whose last step, the removal of dangling
   * deletes, was refused has no row: its counts are -1 (its groups committed or failed before).
   */
  record Call(
      int number,
      long rewrittenDataFiles,
      long addedDataFiles,
      long failedDataFiles,
      long removedDeleteFiles,
      boolean removalRefused,
      Duration took) {}

  /**
   * How Iceberg 1.12 refuses the removal of dangling deletes when any commit landed since the
   * removal planned it (its snapshot ancestry validator), failing the whole call.
   */
  static final String REMOVAL_REFUSED = "Cannot remove dangling deletes: current snapshot changed";

  private static final Logger log = LoggerFactory.getLogger(RewriteLoop.class);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(60);

  private final SparkSession spark;
  private final String catalog;
  private final String table;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(r -> new Thread(r, "spark-rewrite-loop"));
  private final List<Call> calls = new CopyOnWriteArrayList<>();
  private final AtomicInteger started = new AtomicInteger();
  private volatile boolean stopping;
  private Future<?> loop;

  /**
   * @param table {@code namespace.table} in {@code catalog}
   */
  RewriteLoop(SparkSession spark, String catalog, String table) {
    this.spark = spark;
    this.catalog = catalog;
    this.table = table;
  }

  void start() {
    loop =
        thread.submit(
            () -> {
              while (!stopping) {
                calls.add(call(started.incrementAndGet()));
              }
            });
  }

  /** Calls started so far, the one running included. */
  int started() {
    return started.get();
  }

  /** Whether the loop ended (stopped, or a call failed). */
  boolean ended() {
    return loop.isDone();
  }

  /**
   * Lets the call in flight finish and stops.
   *
   * @return every call's result
   * @throws IllegalStateException when a call failed (the cause is Spark's exception)
   */
  List<Call> stop(Duration timeout) throws InterruptedException, TimeoutException {
    stopping = true;
    try {
      loop.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "rewrite_data_files call " + started.get() + " failed", e.getCause());
    }
    return List.copyOf(calls);
  }

  /** One call of the whole table on the calling thread (a quiet compaction once stopped). */
  Call callWholeTable(int number) {
    return call(number, true);
  }

  /** One call on the calling thread: odd numbers the whole table, even ones a filtered binpack. */
  Call call(int number) {
    return call(number, number % 2 == 1);
  }

  private Call call(int number, boolean wholeTable) {
    String sql =
        wholeTable
            ? String.format(
                "CALL %s.system.rewrite_data_files(table => '%s', options => %s)",
                catalog, table, OPTIONS)
            : String.format(
                "CALL %s.system.rewrite_data_files(table => '%s', strategy => 'binpack',"
                    + " where => 'id < 1500', options => %s)",
                catalog, table, OPTIONS);
    long start = System.nanoTime();
    Call call;
    try {
      Row row = spark.sql(sql).collectAsList().get(0);
      call =
          new Call(
              number,
              ((Number) row.getAs("rewritten_data_files_count")).longValue(),
              ((Number) row.getAs("added_data_files_count")).longValue(),
              ((Number) row.getAs("failed_data_files_count")).longValue(),
              ((Number) row.getAs("removed_delete_files_count")).longValue(),
              false,
              Duration.ofNanos(System.nanoTime() - start));
    } catch (ValidationException e) {
      if (e.getMessage() == null || !e.getMessage().startsWith(REMOVAL_REFUSED)) {
        throw e;
      }
      call = new Call(number, -1, -1, -1, -1, true, Duration.ofNanos(System.nanoTime() - start));
      log.info("rewrite_data_files {}: {}", number, e.getMessage());
    }
    log.info("rewrite_data_files {}", call);
    return call;
  }

  /** Stops after the call in flight, cancelling it when it does not end in time. */
  @Override
  public void close() throws InterruptedException {
    stopping = true;
    thread.shutdown();
    if (!thread.awaitTermination(CLOSE_WAIT.toSeconds(), TimeUnit.SECONDS)) {
      spark.sparkContext().cancelAllJobs();
      thread.shutdownNow();
      if (!thread.awaitTermination(CLOSE_WAIT.toSeconds(), TimeUnit.SECONDS)) {
        log.warn("The rewrite loop of {} did not end within {}", table, CLOSE_WAIT.multipliedBy(2));
      }
    }
  }
}
