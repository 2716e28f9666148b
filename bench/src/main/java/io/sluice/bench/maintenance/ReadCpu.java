package io.sluice.bench.maintenance;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * The CPU time a read spends: the calling thread's (user and system) plus that of Iceberg's shared
 * pools, which plan a scan of several manifests ({@value #WORKER_POOL}) and load delete files
 * ({@value #DELETE_POOL}) for the calling thread. Unlike the wall time, it does not count waiting
 * for a core that another thread of the machine holds, nor the collector's pauses of a heap shared
 * with the sink, so on the benchmark's two cores it measures the reader's work rather than what
 * else ran meanwhile. Work the sink gives those pools during the read is counted too; the sampler
 * takes the cheapest of several reads, which keeps that out.
 *
 * <p>The pool names are Iceberg's ({@code ThreadPools}, not a public API): {@code
 * ReadCpuTest#icebergPlansOnThreadsOfTheNamedPool} fails on an upgrade that renames them.
 */
final class ReadCpu {
  static final String WORKER_POOL = "iceberg-worker-pool";
  static final String DELETE_POOL = "iceberg-delete-worker-pool";

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private ReadCpu() {}

  /**
   * Runs {@code read} and returns the CPU nanoseconds it spent on this thread and the pools'.
   *
   * @throws IllegalStateException when this JVM does not measure threads' CPU time
   */
  static long of(Runnable read) {
    if (!THREADS.isCurrentThreadCpuTimeSupported() || !THREADS.isThreadCpuTimeEnabled()) {
      throw new IllegalStateException(
          "this JVM does not measure threads' CPU time (ThreadMXBean), which the scan ratio needs");
    }
    long[] pools = poolThreads();
    long[] before = cpu(pools);
    long self = THREADS.getCurrentThreadCpuTime();
    read.run();
    long spent = THREADS.getCurrentThreadCpuTime() - self;
    long[] after = cpu(pools);
    for (int i = 0; i < pools.length; i++) {
      // -1: the thread ended meanwhile (Iceberg's pool threads live as long as the JVM).
      if (before[i] >= 0 && after[i] >= before[i]) {
        spent += after[i] - before[i];
      }
    }
    return spent;
  }

  /** The ids of the live threads of Iceberg's planning and delete-loading pools. */
  static long[] poolThreads() {
    long[] ids = THREADS.getAllThreadIds();
    ThreadInfo[] infos = THREADS.getThreadInfo(ids, 0);
    return Arrays.stream(infos)
        .filter(i -> i != null && isPoolThread(i.getThreadName()))
        .mapToLong(ThreadInfo::getThreadId)
        .toArray();
  }

  static boolean isPoolThread(String name) {
    return name.startsWith(WORKER_POOL + "-") || name.startsWith(DELETE_POOL + "-");
  }

  private static long[] cpu(long[] ids) {
    long[] times = new long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      times[i] = THREADS.getThreadCpuTime(ids[i]);
    }
    return times;
  }
}
