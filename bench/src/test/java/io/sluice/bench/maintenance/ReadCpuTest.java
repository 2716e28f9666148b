package io.sluice.bench.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.bench.sink.TestTable;
import io.sluice.lake.IcebergRows;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadCpuTest {
  @TempDir Path dir;
  private TestTable fixture;
  private Table table;

  @BeforeEach
  void createTable() throws IOException {
    fixture = new TestTable(dir);
    table = fixture.table;
  }

  @AfterEach
  void closeCatalog() {
    fixture.close();
  }

  /** Guards the pool names ReadCpu counts (Iceberg's ThreadPools, not a public API). */
  @Test
  void icebergPlansOnThreadsOfTheNamedPool() throws IOException {
    // Two appends: two data manifests, which Iceberg plans on its worker pool.
    table.newAppend().appendFile(fixture.writeData(TestTable.rows(1, 10, 1))).commit();
    table.newAppend().appendFile(fixture.writeData(TestTable.rows(11, 20, 1))).commit();

    assertThat(IcebergRows.read(table, 0, r -> {})).isEqualTo(20);

    assertThat(ReadCpu.poolThreads())
        .as("threads named %s-N after a scan of two manifests", ReadCpu.WORKER_POOL)
        .isNotEmpty();
    assertThat(
            Arrays.stream(ManagementFactory.getThreadMXBean().getThreadInfo(ReadCpu.poolThreads()))
                .map(i -> i.getThreadName()))
        .allMatch(ReadCpu::isPoolThread);
  }

  @Test
  void aReadCostsItsCpuTimeNotTheTimeItWaits() throws InterruptedException {
    long busy = ReadCpu.of(() -> burn(50_000_000L));
    // The read waits for another thread to finish 50 ms of work: that CPU is not the read's.
    CountDownLatch done = new CountDownLatch(1);
    Thread other =
        new Thread(
            () -> {
              burn(50_000_000L);
              done.countDown();
            });
    long waiting =
        ReadCpu.of(
            () -> {
              other.start();
              try {
                assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    other.join();

    assertThat(busy).as("50 ms of work").isGreaterThan(20_000_000L);
    assertThat(waiting).as("waiting for 50 ms of another thread's work").isLessThan(20_000_000L);
  }

  /** Keeps this thread busy for {@code nanos} of wall time. */
  private static void burn(long nanos) {
    long until = System.nanoTime() + nanos;
    long x = 0;
    while (System.nanoTime() < until) {
      x += Long.numberOfTrailingZeros(x + 1);
    }
    assertThat(x).isNotNegative();
  }

  @Test
  void onlyIcebergsPoolsCount() {
    assertThat(ReadCpu.isPoolThread("iceberg-worker-pool-0")).isTrue();
    assertThat(ReadCpu.isPoolThread("iceberg-delete-worker-pool-1")).isTrue();
    assertThat(ReadCpu.isPoolThread("kafka-producer-network-thread")).isFalse();
    assertThat(ReadCpu.isPoolThread("iceberg-worker-pool")).isFalse();
  }
}
