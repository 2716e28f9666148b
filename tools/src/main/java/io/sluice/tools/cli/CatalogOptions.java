package io.sluice.tools.cli;

import io.sluice.contract.ReadyFile;
import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Where a command finds the Iceberg catalog: the ready file's {@code iceberg_catalog}, or a catalog
 * URI and warehouse given as flags (compose's REST catalog, or any other).
 */
public final class CatalogOptions {
  @Option(
      names = "--ready-file",
      defaultValue = ".sluice/ready.json",
      description =
          "Ready file of `sluice up`: the endpoints and the Iceberg catalog (iceberg_catalog) come"
              + " from it unless flags give them (default: ${DEFAULT-VALUE}).")
  Path readyFile;

  @Option(
      names = "--catalog-uri",
      description =
          "Catalog URI instead of the ready file: jdbc:sqlite:<file> (a JdbcCatalog) or"
              + " http(s)://... (a REST catalog).")
  String catalogUri;

  @Option(
      names = "--warehouse",
      description = "Warehouse location (with --catalog-uri), e.g. file:/path/to/warehouse.")
  String warehouse;

  @Option(
      names = "--catalog-name",
      defaultValue = Catalogs.EMBEDDED_NAME,
      description = "Catalog name (with --catalog-uri; default: ${DEFAULT-VALUE}).")
  String catalogName;

  /** The ready file these options read. */
  public Path readyFile() {
    return readyFile;
  }

  /**
   * Opens the catalog the flags or the ready file name.
   *
   * @param usageErrorsFor the command whose usage error a missing catalog is, or null when it is a
   *     plain failure of the command
   * @throws IllegalArgumentException (a ParameterException with {@code usageErrorsFor}) naming what
   *     to pass when neither names a catalog
   */
  public LakeCatalog open(CommandLine usageErrorsFor) {
    CommandLine commandLine = usageErrorsFor;
    if (catalogUri != null) {
      try {
        return Catalogs.open(Catalogs.forUri(catalogName, catalogUri, warehouse));
      } catch (IllegalArgumentException e) {
        throw commandLine == null
            ? e
            : new CommandLine.ParameterException(commandLine, e.getMessage());
      }
    }
    return Catalogs.open(
        commandLine == null
            ? new ReadyFile(readyFile).icebergCatalog()
            : new CommandReadyFile(readyFile, commandLine).icebergCatalog());
  }
}
