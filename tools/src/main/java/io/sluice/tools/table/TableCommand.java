package io.sluice.tools.table;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sluice table}: read the lakehouse's Iceberg tables. */
@Command(
    name = "table",
    mixinStandardHelpOptions = true,
    description =
        "Reads Iceberg tables of the lakehouse (catalog from the ready file, or --catalog-uri and"
            + " --catalog):"
            + " the tables there are, rows as Iceberg's own reader sees them, and snapshots with"
            + " their summaries.",
    subcommands = {TableListCommand.class, TableScanCommand.class, TableSnapshotsCommand.class})
public final class TableCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing command: list, scan or snapshots");
  }
}
