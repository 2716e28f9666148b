package io.sluice.stack.workload;

import java.util.List;
import java.util.SplittableRandom;

/**
 * One row of {@code cdc_lab.orders}. {@link #generate} derives every column from the order id and
 * the run's seed, so two runs with the same seed produce the same rows.
 */
public record OrderRow(
    long orderId,
    String businessKey,
    long customerId,
    long amountCents,
    String status,
    long eventId,
    int seed,
    long updatedAtMs) {

  public static final List<String> STATUSES =
      List.of("NEW", "PAID", "SHIPPED", "DELIVERED", "CANCELLED");

  /** 2024-01-01T00:00:00Z: generated rows are updated one second apart from here. */
  static final long EPOCH_MS = 1_704_067_200_000L;

  /**
   * The row for {@code orderId} in a run seeded with {@code seed}; its event id is the order id.
   */
  public static OrderRow generate(long orderId, int seed) {
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ orderId);
    return new OrderRow(
        orderId,
        "ORD-" + seed + "-" + orderId,
        1 + random.nextLong(10_000),
        100 + random.nextLong(1_000_000),
        STATUSES.get(random.nextInt(STATUSES.size())),
        orderId,
        seed,
        EPOCH_MS + orderId * 1000);
  }

  /** The same order after a change: new status, new event id, one second later. */
  public OrderRow updated(String newStatus, long newEventId) {
    return new OrderRow(
        orderId,
        businessKey,
        customerId,
        amountCents,
        newStatus,
        newEventId,
        seed,
        updatedAtMs + 1000);
  }
}
