package io.sluice.connect.upsert.event;

import io.sluice.connect.upsert.index.LongSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns the events of one commit interval into the batch that is written: one event per key, the
 * last one in partition order. Each key is written once per batch (upsert = delete key + insert,
 * delete = delete key), so equality deletes and inserts of one snapshot never meet the same key
 * twice.
 *
 * <p>Keys are compared as the table stores them, not as Connect delivered them: after a key column
 * widened at the source ({@code INT -> BIGINT}), one batch can hold the same key as {@code Integer
 * 5} and {@code Long 5}, which are different Connect values but one row of the table.
 */
public final class BatchPreparer {
  private BatchPreparer() {}

  /**
   * @param events the interval's events, each partition's events in offset order
   * @param keys each event's key as the table stores it, in the order of {@code events}
   * @return the last event of each key, ordered by the position of that last event
   */
  public static List<ChangeEvent> prepare(List<ChangeEvent> events, List<?> keys) {
    // Keys that are all ints or longs (a key of one such column) go into a set of longs: no boxed
    // key to hash and compare for each of a batch's hundreds of thousands of events.
    boolean longs = true;
    for (Object key : keys) {
      if (!(key instanceof Long || key instanceof Integer)) {
        longs = false;
        break;
      }
    }
    LongSet seenLongs = longs ? new LongSet() : null;
    Set<Object> seen = longs ? null : new HashSet<>();
    // From the last event back: the first one seen of a key is its last. One lookup an event.
    List<ChangeEvent> last = new ArrayList<>();
    for (int i = events.size() - 1; i >= 0; i--) {
      Object key = keys.get(i);
      if (longs ? seenLongs.add(((Number) key).longValue()) : seen.add(key)) {
        last.add(events.get(i));
      }
    }
    Collections.reverse(last);
    return last;
  }
}
