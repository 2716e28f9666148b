package io.sluice.tools.table;

import io.sluice.lake.IcebergRows;
import io.sluice.lake.LakeCatalog;
import io.sluice.lake.RowOrder;
import io.sluice.tools.cli.CatalogOptions;
import io.sluice.tools.cli.OutputFormat;
import io.sluice.tools.cli.TextTable;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice table scan}: the rows of a table, deletes applied. */
@Command(
    name = "scan",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the rows of an Iceberg table as Iceberg's own generic reader (IcebergGenerics) sees"
          + " them in the current snapshot: equality and position deletes applied, so a"
          + " deleted or replaced row is not there.",
      "Rows are sorted by the table's identifier fields (the key of a current table) in the"
          + " order its schema lists them, then by every column in schema order (the only order"
          + " of a table without identifier fields, such as a changelog): numbers numerically,"
          + " strings lexically, nulls first. Sorting reads every row and holds the rows it"
          + " prints in memory: all of them without --limit, at most N with --limit N (the first"
          + " N in that order). The summary on stderr names the sort key.",
      "Timestamps print as yyyy-MM-dd HH:mm:ss.SSS, decimals in plain notation, structs as JSON."
    })
final class TableScanCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin CatalogOptions catalog;

  @Parameters(paramLabel = "TABLE", description = "The table, namespace.table.")
  String table;

  @Option(
      names = "--limit",
      defaultValue = "0",
      description =
          "Print the first N rows of the order, holding at most N in memory (default: 0, all).")
  long limit;

  @Option(
      names = "--format",
      defaultValue = "table",
      description = "table (aligned columns) or jsonl (one JSON object per row); default table.")
  OutputFormat format;

  @Override
  public Integer call() {
    if (limit < 0) {
      throw new ParameterException(spec.commandLine(), "--limit must be >= 0, got " + limit);
    }
    PrintWriter out = spec.commandLine().getOut();
    try (LakeCatalog lake = catalog.open(null)) {
      Table t = lake.table(table);
      long rows;
      if (format == OutputFormat.jsonl) {
        rows = IcebergRows.readSorted(t, limit, r -> out.println(IcebergRows.toJson(r)));
      } else {
        List<String> columns = IcebergRows.columns(t);
        List<List<String>> cells = new ArrayList<>();
        rows =
            IcebergRows.readSorted(
                t,
                limit,
                r -> {
                  List<String> line = new ArrayList<>(columns.size());
                  for (int i = 0; i < columns.size(); i++) {
                    line.add(IcebergRows.text(r.get(i)));
                  }
                  cells.add(line);
                });
        TextTable.print(out, columns, cells);
      }
      out.flush();
      Snapshot current = t.currentSnapshot();
      PrintWriter err = spec.commandLine().getErr();
      List<String> key = RowOrder.identifierNames(t.schema());
      err.printf(
          "%s rows from %s, snapshot %s, sorted by %s%n",
          limit > 0 && rows > limit ? "first " + limit + " of " + rows : String.valueOf(rows),
          t.name(),
          current == null ? "none" : current.snapshotId(),
          key.isEmpty() ? "every column (no identifier fields)" : String.join(", ", key));
      err.flush();
    }
    return 0;
  }
}
