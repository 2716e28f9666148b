package io.sluice.bench.backfill;

import io.sluice.stack.StackLayout;
import java.util.List;
import java.util.function.Predicate;

/**
 * A stage of the path from source to lake: what its progress is counted by and which threads of
 * this JVM do its work, recognised by name.
 *
 * @param name how the output names it
 * @param measure what its count is
 * @param threads the names of its threads
 * @param packages code of the stage: a thread no name gives away (a pool's {@code pool-N-thread-M})
 *     belongs to the stage whose package its stack shows first
 */
public record Stage(String name, String measure, Predicate<String> threads, List<String> packages) {
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
                  || t.startsWith("blc-"),
          List.of("io.debezium.", "io.sluice.capture.")),
      new Stage(
          "router",
          "offsets of " + layout.cleanTopic(),
          t -> t.contains(layout.routerApplicationId()),
          List.of("io.sluice.router.", "org.apache.kafka.streams.")),
      new Stage(
          "upsert sink",
          "rows in " + layout.currentTable(),
          t -> t.contains(layout.upsertSink()),
          List.of("io.sluice.connect.upsert.")),
      new Stage(
          "changelog sink",
          "rows in " + layout.changelogTable(),
          t -> t.contains(layout.changelogSink()),
          List.of("org.apache.iceberg.connect."))
    };
  }
}
