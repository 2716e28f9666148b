package io.sluice.bench.sink;

import io.sluice.stack.workload.OrderRow;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A deterministic stream of changes to {@code keys} orders, as Debezium would report them: a key
 * that does not exist is created ({@code c}); an existing key is deleted ({@code d}) with
 * probability {@code deleteShare}, else updated ({@code u}). Keys are drawn uniformly, so with many
 * records per key the stream settles into a mix of all three. It keeps the state the changes leave
 * behind: what the current table must hold afterwards.
 */
public final class ChangeStream {
  /** One change; {@code before} is null for c, {@code after} null for d. */
  public record Change(long orderId, String op, OrderRow before, OrderRow after) {}

  private final int seed;
  private final long keys;
  private final double deleteShare;
  private final SplittableRandom random;
  private final Map<Long, OrderRow> live = new HashMap<>();
  private long eventId;
  private long creates;
  private long updates;
  private long deletes;

  public ChangeStream(int seed, long keys, double deleteShare) {
    if (keys < 1) {
      throw new IllegalArgumentException("keys must be at least 1, got " + keys);
    }
    if (deleteShare < 0 || deleteShare >= 1) {
      throw new IllegalArgumentException("delete share must be in [0, 1), got " + deleteShare);
    }
    this.seed = seed;
    this.keys = keys;
    this.deleteShare = deleteShare;
    this.random = new SplittableRandom(seed);
  }

  /** The next change, to a key drawn uniformly. */
  public Change next() {
    return next(1 + random.nextLong(keys));
  }

  /**
   * The next change, to {@code orderId}: created when it does not exist, else deleted or updated.
   */
  public Change next(long orderId) {
    if (orderId < 1 || orderId > keys) {
      throw new IllegalArgumentException("order id must be in [1, " + keys + "], got " + orderId);
    }
    long event = ++eventId;
    OrderRow before = live.get(orderId);
    if (before == null) {
      OrderRow g = OrderRow.generate(orderId, seed);
      OrderRow created =
          new OrderRow(
              orderId,
              g.businessKey(),
              g.customerId(),
              g.amountCents(),
              g.status(),
              event,
              seed,
              g.updatedAtMs());
      live.put(orderId, created);
      creates++;
      return new Change(orderId, "c", null, created);
    }
    if (random.nextDouble() < deleteShare) {
      live.remove(orderId);
      deletes++;
      return new Change(orderId, "d", before, null);
    }
    String status = OrderRow.STATUSES.get(random.nextInt(OrderRow.STATUSES.size()));
    OrderRow updated = before.updated(status, event);
    live.put(orderId, updated);
    updates++;
    return new Change(orderId, "u", before, updated);
  }

  /** The rows that exist after every change so far, by order id. */
  public Map<Long, OrderRow> live() {
    return Collections.unmodifiableMap(live);
  }

  public long creates() {
    return creates;
  }

  public long updates() {
    return updates;
  }

  public long deletes() {
    return deletes;
  }

  public long events() {
    return eventId;
  }
}
