package io.sluice.scenarios.fault;

import static io.sluice.scenarios.fault.FaultCheck.EARLIER_ROWS_KEEP_NULL;
import static io.sluice.scenarios.fault.FaultCheck.NEW_COLUMN_REACHED_ICEBERG_WITH_VALUES;

import io.sluice.scenarios.BoundedWait;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.stack.db.OrdersTable;
import io.sluice.stack.db.TableWorkload;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/** schema-change's two changes of {@code cdc_lab.orders}, and what the first must bring. */
final class SchemaChange {
  private static final Duration STEP_TIMEOUT = Duration.ofSeconds(120);

  private final ScenarioStack stack;
  private final FaultScenario.Settings settings;
  private final Consumer<String> progress;

  SchemaChange(ScenarioStack stack, FaultScenario.Settings settings, Consumer<String> progress) {
    this.stack = stack;
    this.settings = settings;
    this.progress = progress;
  }

  /**
   * schema-change: the first change adds a nullable column to {@code cdc_lab.orders} under load and
   * gives it values in the rows of the next two rounds (which the workload wrote after the ADD),
   * then waits until the current table has the column with those values and null in every row
   * written before; the second change drops the column again.
   */
  FaultSections.Injection change(
      int number, SteadyWorkload workload, Map<FaultCheck, Boolean> proved) throws Exception {
    String column = addedColumn();
    int afterRound = workload.roundsDone();
    String at = Instant.now().toString();
    long from = System.nanoTime();
    if (number == 1) {
      execute(
          "ALTER TABLE "
              + OrdersTable.QUALIFIED_NAME
              + " ADD COLUMN "
              + column
              + " VARCHAR(40) NULL");
      int first = afterRound + 1;
      int last = Math.min(settings.rounds(), afterRound + 2);
      workload.awaitRound(last, STEP_TIMEOUT);
      Map<String, String> valued = new HashMap<>();
      try (Connection c = stack.connect()) {
        c.setAutoCommit(true);
        for (int round = first; round <= last; round++) {
          int seed = SteadyWorkload.roundSeed(settings.run().seed(), round);
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE "
                      + OrdersTable.QUALIFIED_NAME
                      + " SET "
                      + column
                      + " = CONCAT('v-', order_id) WHERE seed = ?")) {
            ps.setInt(1, seed);
            ps.executeUpdate();
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT order_id FROM " + OrdersTable.QUALIFIED_NAME + " WHERE seed = ?")) {
            ps.setInt(1, seed);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                valued.put(String.valueOf(rs.getLong(1)), "v-" + rs.getLong(1));
              }
            }
          }
        }
      }
      long baselineLow = TableWorkload.id(settings.run().seed(), 0);
      long baselineHigh = TableWorkload.id(settings.run().seed() + 1, 0);
      Map<String, Object> lake =
          BoundedWait.latest(
              settings.run().waitTimeout(),
              () -> stack.columnValues(ScenarioStack.CURRENT_TABLE, OrdersTable.KEY_COLUMN, column),
              values ->
                  valued.entrySet().stream()
                      .allMatch(e -> e.getValue().equals(values.get(e.getKey()))));
      boolean reached =
          lake != null
              && !valued.isEmpty()
              && valued.entrySet().stream()
                  .allMatch(e -> e.getValue().equals(lake.get(e.getKey())));
      boolean earlierNull =
          lake != null
              && lake.entrySet().stream()
                  .filter(e -> inRange(e.getKey(), baselineLow, baselineHigh))
                  .allMatch(e -> e.getValue() == null)
              && lake.keySet().stream().anyMatch(k -> inRange(k, baselineLow, baselineHigh));
      proved.put(NEW_COLUMN_REACHED_ICEBERG_WITH_VALUES, reached);
      proved.put(EARLIER_ROWS_KEEP_NULL, earlierNull);
      progress.accept(
          "  added "
              + column
              + ": "
              + valued.size()
              + " rows given values, "
              + (reached ? "all" : "NOT all")
              + " in Iceberg; baseline rows "
              + (earlierNull ? "null" : "NOT null")
              + " in it");
    } else {
      execute("ALTER TABLE " + OrdersTable.QUALIFIED_NAME + " DROP COLUMN " + column);
      progress.accept("  dropped " + column);
    }
    return new FaultSections.Injection(
        number,
        number == 1 ? "add column " + column : "drop column " + column,
        at,
        afterRound,
        null,
        null,
        null,
        (System.nanoTime() - from) / 1_000_000,
        null,
        null,
        true,
        null);
  }

  /** The column schema-change adds: one per seed, so a run on a used stack adds its own. */
  private String addedColumn() {
    return "note_s" + settings.run().seed();
  }

  private static boolean inRange(String key, long low, long high) {
    long id = Long.parseLong(key);
    return id > low && id < high;
  }

  private void execute(String sql) throws Exception {
    try (Connection c = stack.connect();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
