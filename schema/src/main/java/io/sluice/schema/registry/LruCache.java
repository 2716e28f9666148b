package io.sluice.schema.registry;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A size-bounded, thread-safe map that evicts the least recently used entry. The bound keeps a
 * storm of random schema ids (poison records) from growing the client's memory without limit.
 */
final class LruCache<K, V> {
  private final Map<K, V> map;

  LruCache(int maxEntries) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be >= 1, got " + maxEntries);
    }
    this.map =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > maxEntries;
          }
        };
  }

  synchronized V get(K key) {
    return map.get(key);
  }

  synchronized void put(K key, V value) {
    map.put(key, value);
  }

  synchronized void remove(K key) {
    map.remove(key);
  }

  synchronized int size() {
    return map.size();
  }
}
