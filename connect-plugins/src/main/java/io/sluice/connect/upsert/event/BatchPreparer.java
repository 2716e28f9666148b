package io.sluice.connect.upsert.event;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the events of one commit interval into the batch that is written: one event per key, the
 * last one in partition order. Each key is written once per batch (upsert = delete key + insert,
 * delete = delete key), so equality deletes and inserts of one snapshot never meet the same key
 * twice.
 */
public final class BatchPreparer {
  private BatchPreparer() {}

  /**
   * @param events the interval's events, each partition's events in offset order
   * @return the last event of each key, ordered by the position of that last event
   */
  public static List<ChangeEvent> prepare(List<ChangeEvent> events) {
    Map<List<Object>, ChangeEvent> last = new LinkedHashMap<>();
    for (ChangeEvent event : events) {
      List<Object> key = KeyValues.of(event.key());
      last.remove(key);
      last.put(key, event);
    }
    return new ArrayList<>(last.values());
  }
}
