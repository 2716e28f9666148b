package io.sluice.bench.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class StageCpuTest {
  @Test
  void aPoolThreadCountsForTheStageWhosePackageItsStackShows() throws Exception {
    Stage mine = new Stage("mine", "test", name -> false, List.of("io.sluice.bench.backfill."));
    Stage other = new Stage("other", "test", name -> false, List.of("org.example.none."));
    StageCpu cpu = new StageCpu(new Stage[] {other, mine});
    cpu.start();
    CountDownLatch stop = new CountDownLatch(1);
    Thread pool = new Thread(() -> spin(stop), "pool-99-thread-1");
    pool.start();
    try {
      await("the pool thread taken by its stage, from a dump of its stack")
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                cpu.sample();
                return cpu.stageOfThread("pool-99-thread-1") == 1;
              });
      long before = cpu.nanos(1);
      await("the pool thread's CPU counted for its stage")
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                cpu.sample();
                return cpu.nanos(1) - before > 50_000_000L;
              });
      assertThat(cpu.nanos(0)).isZero();
      assertThat(cpu.unattributed(50)).noneMatch(line -> line.startsWith("pool-99-thread-1:"));
    } finally {
      stop.countDown();
      pool.join();
    }
  }

  private static void spin(CountDownLatch stop) {
    long x = 0;
    while (stop.getCount() > 0) {
      x += System.nanoTime() % 7;
    }
    assertThat(x).isNotNegative();
  }
}
