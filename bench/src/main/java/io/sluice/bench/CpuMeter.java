package io.sluice.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * CPU time spent by this JVM and by one application's threads (those whose names contain its
 * application id: stream threads, their producers and consumers). Unlike records/s, CPU per record
 * hardly moves when other processes load the machine, so it shows what the router itself costs.
 */
final class CpuMeter {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private CpuMeter() {}

  /** CPU time of the whole JVM (broker, registry and both applications' clients included). */
  static Duration process() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return Duration.ofNanos(Math.max(0, os.getProcessCpuTime()));
    }
    return Duration.ZERO;
  }

  /**
   * Time the JIT compiler threads have spent compiling since the JVM started (summed over them);
   * zero when the JVM does not say.
   */
  static Duration jitCompilation() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
      return Duration.ZERO;
    }
    return Duration.ofMillis(jit.getTotalCompilationTime());
  }

  /** CPU time of the live threads whose name contains {@code applicationId}. */
  static Duration threadsOf(String applicationId) {
    return threads(name -> name.contains(applicationId));
  }

  /**
   * CPU time of the application's live stream threads ({@code <application id>-<uuid>-StreamThread-
   * <n>}), where its records are processed.
   */
  static Duration streamThreadsOf(String applicationId) {
    Pattern streamThread = Pattern.compile(Pattern.quote(applicationId) + "-.*-StreamThread-\\d+");
    return threads(name -> streamThread.matcher(name).matches());
  }

  private static Duration threads(Predicate<String> name) {
    if (!THREADS.isThreadCpuTimeSupported()) {
      return Duration.ZERO;
    }
    long nanos = 0;
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info != null && name.test(info.getThreadName())) {
        nanos += Math.max(0, THREADS.getThreadCpuTime(info.getThreadId()));
      }
    }
    return Duration.ofNanos(nanos);
  }
}
