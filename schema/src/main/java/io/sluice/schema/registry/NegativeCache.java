package io.sluice.schema.registry;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Remembers, for a short time, that something was absent (an unknown schema id, an id that is not
 * in a subject), so a burst of the same poison costs one request; after the TTL the registry is
 * asked again, so a later registration is seen.
 */
final class NegativeCache<K> {
  private final LruCache<K, Long> expiries;
  private final long ttlNanos;
  private final LongSupplier nanoClock;

  NegativeCache(int maxEntries, Duration ttl, LongSupplier nanoClock) {
    this.expiries = new LruCache<>(maxEntries);
    this.ttlNanos = ttl.toNanos();
    this.nanoClock = nanoClock;
  }

  void add(K key) {
    if (ttlNanos > 0) {
      expiries.put(key, nanoClock.getAsLong() + ttlNanos);
    }
  }

  boolean contains(K key) {
    Long expiry = expiries.get(key);
    if (expiry == null) {
      return false;
    }
    if (nanoClock.getAsLong() - expiry >= 0) {
      expiries.remove(key);
      return false;
    }
    return true;
  }

  void remove(K key) {
    expiries.remove(key);
  }
}
