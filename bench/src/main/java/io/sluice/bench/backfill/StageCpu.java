package io.sluice.bench.backfill;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time of this JVM's threads since {@link #start}, by stage: the first stage whose thread
 * predicate takes a thread's name, else the first whose package a sample of the thread's stack
 * shows (nearest frame first), kept once found. Each sample keeps every thread's latest CPU time,
 * so a thread that ends still counts up to its last sample; what it spent after that is lost.
 *
 * <p>A sample reads each thread's CPU clock, which stops nothing. Names and stacks come from thread
 * dumps, which stop every thread of the JVM at a safepoint: the names of new threads are dumped
 * once, and the stacks of the threads no stage has taken yet in one dump at most every {@link
 * #STACKS_EVERY}. Dumping each thread's stack at every sample, as this class first did, held the
 * measured sinks at safepoints for a third of their time.
 */
public final class StageCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final int STACK_DEPTH = 64;
  static final Duration STACKS_EVERY = Duration.ofMillis(500);

  private final Stage[] stages;
  private final Map<Long, Long> baseline = new HashMap<>();
  private final Map<Long, Long> latest = new HashMap<>();
  private final Map<Long, String> names = new HashMap<>();
  private final Map<Long, Integer> byStack = new HashMap<>();
  private long nextStacks = System.nanoTime();

  public StageCpu(Stage[] stages) {
    this.stages = stages;
  }

  /** Takes the CPU time every live thread has spent so far as zero. */
  public synchronized void start() {
    sample();
    baseline.putAll(latest);
  }

  public synchronized void sample() {
    List<Long> unnamed = new ArrayList<>();
    long[] live = THREADS.getAllThreadIds();
    for (long id : live) {
      long nanos = THREADS.getThreadCpuTime(id);
      if (nanos >= 0) {
        latest.put(id, nanos);
        if (!names.containsKey(id)) {
          unnamed.add(id);
        }
      }
    }
    if (!unnamed.isEmpty()) {
      for (ThreadInfo info : THREADS.getThreadInfo(ids(unnamed))) {
        if (info != null) {
          names.put(info.getThreadId(), info.getThreadName());
        }
      }
    }
    if (System.nanoTime() - nextStacks >= 0) {
      nextStacks = System.nanoTime() + STACKS_EVERY.toNanos();
      attributeByStack(live);
    }
  }

  /** CPU nanoseconds of {@code stage}'s threads since {@link #start}. */
  public synchronized long nanos(int stage) {
    long sum = 0;
    for (Map.Entry<Long, Long> e : latest.entrySet()) {
      if (stageOf(e.getKey()) == stage) {
        sum += e.getValue() - baseline.getOrDefault(e.getKey(), 0L);
      }
    }
    return sum;
  }

  /** The {@code limit} busiest threads no stage takes, as "name: seconds", busiest first. */
  public synchronized List<String> unattributed(int limit) {
    List<Map.Entry<Long, Long>> spent = new ArrayList<>();
    for (Map.Entry<Long, Long> e : latest.entrySet()) {
      if (stageOf(e.getKey()) < 0) {
        spent.add(Map.entry(e.getKey(), e.getValue() - baseline.getOrDefault(e.getKey(), 0L)));
      }
    }
    spent.sort(Map.Entry.<Long, Long>comparingByValue(Comparator.reverseOrder()));
    return spent.stream()
        .limit(limit)
        .map(e -> String.format("%s: %.1f s", names.get(e.getKey()), e.getValue() / 1e9))
        .toList();
  }

  /** The stage of the thread named {@code name}: -1 when none took it yet, -2 when not seen. */
  synchronized int stageOfThread(String name) {
    for (Map.Entry<Long, String> e : names.entrySet()) {
      if (e.getValue().equals(name)) {
        return stageOf(e.getKey());
      }
    }
    return -2;
  }

  /** One dump of the stacks of the live threads no stage has taken yet. */
  private void attributeByStack(long[] live) {
    List<Long> open = new ArrayList<>();
    for (long id : live) {
      if (names.containsKey(id) && stageOf(id) < 0) {
        open.add(id);
      }
    }
    if (open.isEmpty()) {
      return;
    }
    for (ThreadInfo info : THREADS.getThreadInfo(ids(open), STACK_DEPTH)) {
      if (info != null) {
        attribute(info);
      }
    }
  }

  private void attribute(ThreadInfo info) {
    for (StackTraceElement frame : info.getStackTrace()) {
      for (int i = 0; i < stages.length; i++) {
        for (String pkg : stages[i].packages()) {
          if (frame.getClassName().startsWith(pkg)) {
            byStack.put(info.getThreadId(), i);
            return;
          }
        }
      }
    }
  }

  private static long[] ids(List<Long> ids) {
    return ids.stream().mapToLong(Long::longValue).toArray();
  }

  private int stageOf(long threadId) {
    int byName = stageByName(names.get(threadId));
    return byName >= 0 ? byName : byStack.getOrDefault(threadId, -1);
  }

  private int stageByName(String thread) {
    for (int i = 0; i < stages.length; i++) {
      if (stages[i].threads().test(thread)) {
        return i;
      }
    }
    return -1;
  }
}
