package io.sluice.bench.backfill;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
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
 */
public final class StageCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final int STACK_DEPTH = 64;

  private final Stage[] stages;
  private final Map<Long, Long> baseline = new HashMap<>();
  private final Map<Long, Long> latest = new HashMap<>();
  private final Map<Long, String> names = new HashMap<>();
  private final Map<Long, Integer> byStack = new HashMap<>();

  public StageCpu(Stage[] stages) {
    this.stages = stages;
  }

  /** Takes the CPU time every live thread has spent so far as zero. */
  public synchronized void start() {
    sample();
    baseline.putAll(latest);
  }

  public synchronized void sample() {
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      long nanos = THREADS.getThreadCpuTime(info.getThreadId());
      if (nanos >= 0) {
        latest.put(info.getThreadId(), nanos);
        names.put(info.getThreadId(), info.getThreadName());
        if (stageByName(info.getThreadName()) < 0 && !byStack.containsKey(info.getThreadId())) {
          attributeByStack(info.getThreadId());
        }
      }
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
  synchronized List<String> unattributed(int limit) {
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

  private void attributeByStack(long threadId) {
    ThreadInfo info = THREADS.getThreadInfo(threadId, STACK_DEPTH);
    if (info == null) {
      return;
    }
    for (StackTraceElement frame : info.getStackTrace()) {
      for (int i = 0; i < stages.length; i++) {
        for (String pkg : stages[i].packages()) {
          if (frame.getClassName().startsWith(pkg)) {
            byStack.put(threadId, i);
            return;
          }
        }
      }
    }
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
