package io.sluice.bench.sink;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * When each record was handed to the producer, by partition and offset (offsets of a fresh topic
 * written without transactions are dense from 0). Written from the producer's callback thread, read
 * after {@code flush()}.
 */
public final class SendLog {
  private final Map<Integer, long[]> times = new HashMap<>();
  private final Map<Integer, Long> ends = new HashMap<>();

  synchronized void sent(int partition, long offset, long sentAtMs) {
    long[] array = times.computeIfAbsent(partition, p -> new long[1024]);
    if (offset >= array.length) {
      array = Arrays.copyOf(array, (int) Math.max(offset + 1, array.length * 2L));
      times.put(partition, array);
    }
    array[(int) offset] = sentAtMs;
    ends.merge(partition, offset + 1, Math::max);
  }

  /** Per partition, the offset after the last record sent so far. */
  public synchronized Map<Integer, Long> ends() {
    return Map.copyOf(ends);
  }

  public synchronized long sentAt(int partition, long offset) {
    return times.get(partition)[(int) offset];
  }
}
