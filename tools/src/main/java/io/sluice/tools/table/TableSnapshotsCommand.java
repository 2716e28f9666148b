package io.sluice.tools.table;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.lake.LakeCatalog;
import io.sluice.tools.cli.CatalogOptions;
import io.sluice.tools.cli.OutputFormat;
import io.sluice.tools.cli.TextTable;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice table snapshots}: the snapshots of a table with their summaries. */
@Command(
    name = "snapshots",
    mixinStandardHelpOptions = true,
    description = {
      "Lists the snapshots of an Iceberg table in commit order: id, parent id, commit time (UTC),"
          + " operation and summary. The summary holds the Kafka offsets each commit covers:"
          + " sluice.offsets.<connector> for the upsert sink, kafka.connect.offsets.* for the"
          + " Apache sink.",
      "--format table shows the record counts and offsets; jsonl shows every summary entry."
    })
final class TableSnapshotsCommand implements Callable<Integer> {
  /** Summary entries shown by the table format (the rest only in jsonl). */
  private static final List<String> SHOWN_PREFIXES =
      List.of("added-records", "total-records", "sluice.offsets.", "kafka.connect.offsets.");

  @Spec CommandSpec spec;

  @Mixin CatalogOptions catalog;

  @Parameters(paramLabel = "TABLE", description = "The table, namespace.table.")
  String table;

  @Option(
      names = "--format",
      defaultValue = "table",
      description = "table or jsonl (one JSON object per snapshot); default table.")
  OutputFormat format;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    try (LakeCatalog lake = catalog.open(null)) {
      Table t = lake.table(table);
      List<List<String>> rows = new ArrayList<>();
      for (Snapshot s : t.snapshots()) {
        if (format == OutputFormat.jsonl) {
          out.println(json(s));
        } else {
          rows.add(
              List.of(
                  String.valueOf(s.snapshotId()),
                  s.parentId() == null ? "-" : String.valueOf(s.parentId()),
                  Instant.ofEpochMilli(s.timestampMillis()).toString(),
                  String.valueOf(s.operation()),
                  shownSummary(s.summary())));
        }
      }
      if (format == OutputFormat.table) {
        TextTable.print(
            out, List.of("snapshot_id", "parent_id", "committed_at", "operation", "summary"), rows);
      }
      out.flush();
    }
    return 0;
  }

  private static ObjectNode json(Snapshot s) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("snapshot_id", s.snapshotId());
    if (s.parentId() == null) {
      node.putNull("parent_id");
    } else {
      node.put("parent_id", s.parentId());
    }
    node.put("committed_at", Instant.ofEpochMilli(s.timestampMillis()).toString());
    node.put("timestamp_ms", s.timestampMillis());
    node.put("operation", s.operation());
    ObjectNode summary = node.putObject("summary");
    new TreeMap<>(s.summary()).forEach(summary::put);
    return node;
  }

  private static String shownSummary(Map<String, String> summary) {
    return new TreeMap<>(summary)
        .entrySet().stream()
            .filter(e -> SHOWN_PREFIXES.stream().anyMatch(p -> e.getKey().startsWith(p)))
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(" "));
  }
}
