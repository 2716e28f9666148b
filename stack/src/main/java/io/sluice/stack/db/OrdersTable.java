package io.sluice.stack.db;

/** The lab's source table, {@code cdc_lab.orders}. */
public final class OrdersTable {
  public static final String NAME = "orders";
  public static final String QUALIFIED_NAME = "cdc_lab." + NAME;

  /** The primary key. */
  public static final String KEY_COLUMN = "order_id";

  public static final String CREATE_SQL =
      "CREATE TABLE IF NOT EXISTS "
          + QUALIFIED_NAME
          + " ("
          + " order_id BIGINT NOT NULL PRIMARY KEY,"
          + " business_key VARCHAR(64) NOT NULL,"
          + " customer_id BIGINT NOT NULL,"
          + " amount_cents BIGINT NOT NULL,"
          + " status VARCHAR(16) NOT NULL,"
          + " event_id BIGINT NOT NULL,"
          + " seed INT NOT NULL,"
          + " updated_at DATETIME(3) NOT NULL"
          + ")";

  private OrdersTable() {}
}
