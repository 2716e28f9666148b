package io.sluice.tools.table;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.lake.LakeCatalog;
import io.sluice.tools.cli.CatalogOptions;
import io.sluice.tools.cli.OutputFormat;
import io.sluice.tools.cli.TextTable;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice table list}: every table of the lake, one line each. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "Lists the Iceberg tables of the given namespaces (default: every namespace), sorted by"
          + " name: identifier fields (the key a current table is upserted by; none for a"
          + " changelog), snapshots, the records in its data files (the snapshot summary's"
          + " total-records: rows that equality deletes removed still count) and the last commit"
          + " (UTC), from the table metadata only (no data file is read)."
    })
final class TableListCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin CatalogOptions catalog;

  @Parameters(
      paramLabel = "NAMESPACE",
      arity = "0..*",
      description = "Namespaces to list, e.g. cdc_lab (default: all).")
  List<String> namespaces = new ArrayList<>();

  @Option(
      names = "--format",
      defaultValue = "table",
      description = "table or jsonl (one JSON object per table); default table.")
  OutputFormat format;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    try (LakeCatalog lake = catalog.open(spec.commandLine())) {
      List<TableIdentifier> ids = new ArrayList<>();
      for (Namespace namespace : namespaces(lake)) {
        ids.addAll(lake.catalog().listTables(namespace));
      }
      ids.sort(Comparator.comparing(TableIdentifier::toString));
      List<List<String>> rows = new ArrayList<>();
      for (TableIdentifier id : ids) {
        Table table = lake.catalog().loadTable(id);
        Snapshot current = table.currentSnapshot();
        List<String> key = new ArrayList<>();
        table.schema().identifierFieldIds().stream()
            .sorted()
            .forEach(fieldId -> key.add(table.schema().findColumnName(fieldId)));
        long snapshots = 0;
        for (Snapshot ignored : table.snapshots()) {
          snapshots++;
        }
        String records =
            current == null ? "0" : current.summary().getOrDefault("total-records", "?");
        String committed =
            current == null ? "-" : Instant.ofEpochMilli(current.timestampMillis()).toString();
        if (format == OutputFormat.jsonl) {
          out.println(json(id, key, snapshots, records, current));
        } else {
          rows.add(
              List.of(
                  id.toString(),
                  key.isEmpty() ? "-" : String.join(",", key),
                  String.valueOf(snapshots),
                  records,
                  committed));
        }
      }
      if (format == OutputFormat.table) {
        TextTable.print(
            out,
            List.of("table", "identifier_fields", "snapshots", "data_file_records", "last_commit"),
            rows);
      }
      out.flush();
    }
    return 0;
  }

  private List<Namespace> namespaces(LakeCatalog lake) {
    if (!namespaces.isEmpty()) {
      return namespaces.stream().map(n -> Namespace.of(n.split("\\."))).toList();
    }
    if (!(lake.catalog() instanceof SupportsNamespaces listing)) {
      throw new IllegalArgumentException(
          "catalog "
              + lake.catalog().name()
              + " cannot list its namespaces; name them: sluice table list cdc_lab");
    }
    return listing.listNamespaces().stream()
        .sorted(Comparator.comparing(Namespace::toString))
        .toList();
  }

  private static ObjectNode json(
      TableIdentifier id, List<String> key, long snapshots, String records, Snapshot current) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("table", id.toString());
    ArrayNode fields = node.putArray("identifier_fields");
    key.forEach(fields::add);
    node.put("snapshots", snapshots);
    if ("?".equals(records)) {
      node.putNull("data_file_records");
    } else {
      node.put("data_file_records", Long.parseLong(records));
    }
    if (current == null) {
      node.putNull("last_commit");
    } else {
      node.put("last_commit", Instant.ofEpochMilli(current.timestampMillis()).toString());
    }
    return node;
  }
}
