package io.sluice.lab.cli;

import io.sluice.lab.iceberg.Catalogs;
import io.sluice.lab.iceberg.LakeCatalog;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where a command finds the Iceberg catalog: the ready file, or a catalog URI and warehouse. */
final class CatalogOptions {
  @Option(
      names = "--ready-file",
      defaultValue = ".sluice/ready.json",
      description =
          "Ready file of `sluice up`; its iceberg_catalog names the catalog"
              + " (default: ${DEFAULT-VALUE}).")
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

  LakeCatalog open() {
    if (catalogUri != null) {
      return Catalogs.open(Catalogs.forUri(catalogName, catalogUri, warehouse));
    }
    return Catalogs.fromReadyFile(readyFile);
  }
}
