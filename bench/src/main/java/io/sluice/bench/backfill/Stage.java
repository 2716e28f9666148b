package io.sluice.bench.backfill;

import io.sluice.stack.StackLayout;
import java.util.function.Predicate;

/**
 * A stage of the path from source to lake: what its progress is counted by and which threads of
 * this JVM do its work, recognised by name.
 *
 * @param name how the output names it
 * @param measure what its count is
 * @param threads the names of its threads
 */
record Stage(String name, String measure, Predicate<String> threads) {
  /** The four stages of the stack, in data-flow order. */
  static Stage[] of(StackLayout layout) {
    String capture = layout.captureName();
    return new Stage[] {
      new Stage(
          "capture",
          "records in " + layout.mainTopic(),
          // Debezium's snapshot and coordinator threads, the binlog client, the engine thread and
          // the capture's producer (client id <capture name>-producer).
          t ->
              t.contains(capture)
                  || t.equals("capture-engine")
                  || t.contains("debezium")
                  || t.startsWith("blc-")),
      new Stage(
          "router",
          "offsets of " + layout.cleanTopic(),
          t -> t.contains(layout.routerApplicationId())),
      new Stage(
          "upsert sink", "rows in " + layout.currentTable(), t -> t.contains(layout.upsertSink())),
      new Stage(
          "changelog sink",
          "rows in " + layout.changelogTable(),
          t -> t.contains(layout.changelogSink()))
    };
  }
}
