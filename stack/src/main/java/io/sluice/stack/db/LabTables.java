package io.sluice.stack.db;

import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/** The source tables {@code sluice load} writes, by their short names. */
public final class LabTables {
  /** What {@code sluice load} writes when no {@code --tables} is given. */
  public static final List<String> DEFAULT =
      List.of("orders", "customers", "order_items", "audit_log");

  private static final Map<String, IntFunction<TableWorkload>> WORKLOADS =
      Map.of(
          "orders", OrdersWorkload::new,
          "customers", CustomersWorkload::new,
          "order_items", OrderItemsWorkload::new,
          "audit_log", AuditLogWorkload::new);

  /** Every short name, in a stable order. */
  public static final List<String> ALL = List.of("orders", "customers", "order_items", "audit_log");

  private LabTables() {}

  /**
   * The workload of {@code name} with {@code seed}.
   *
   * @throws IllegalArgumentException naming the known tables when {@code name} is none
   */
  public static TableWorkload workload(String name, int seed) {
    IntFunction<TableWorkload> make = WORKLOADS.get(name);
    if (make == null) {
      throw new IllegalArgumentException("unknown table '" + name + "'; known: " + ALL);
    }
    return make.apply(seed);
  }
}
