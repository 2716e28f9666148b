package io.sluice.tools.cli;

import io.sluice.contract.ReadyFile;
import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Where a command finds the Iceberg catalog: the ready file's {@code iceberg_catalog}, or a catalog
 * URI and warehouse given as flags (compose's REST catalog, or any other), with any other catalog
 * property (S3 endpoint and keys, a FileIO) as {@code --catalog KEY=VALUE}.
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
      description =
          "Warehouse location (with --catalog-uri or --catalog), e.g. file:/path/to/warehouse or"
              + " s3://warehouse/.")
  String warehouse;

  @Option(
      names = "--catalog-name",
      defaultValue = Catalogs.EMBEDDED_NAME,
      description = "Catalog name (with --catalog-uri or --catalog; default: ${DEFAULT-VALUE}).")
  String catalogName;

  @Option(
      names = "--catalog",
      paramLabel = "KEY=VALUE",
      description =
          "A catalog property as CatalogUtil.buildIcebergCatalog takes it (type, uri, warehouse,"
              + " io-impl, s3.endpoint, s3.path-style-access, ...); repeat for each. Added to"
              + " --catalog-uri's, or on its own (then with type= or catalog-impl=); either way"
              + " the ready file is not used.")
  Map<String, String> properties = new LinkedHashMap<>();

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
    Map<String, String> flags;
    try {
      flags = catalogObject();
    } catch (IllegalArgumentException e) {
      throw commandLine == null
          ? e
          : new CommandLine.ParameterException(commandLine, e.getMessage());
    }
    if (flags != null) {
      return Catalogs.open(flags);
    }
    return Catalogs.open(
        commandLine == null
            ? new ReadyFile(readyFile).icebergCatalog()
            : new CommandReadyFile(readyFile, commandLine).icebergCatalog());
  }

  /**
   * The catalog object the flags give: {@code --catalog-uri}'s (and {@code --warehouse}'s) with
   * every {@code --catalog} property over it, or the {@code --catalog} properties alone.
   *
   * @return null when no flag names a catalog (the ready file's is used)
   * @throws IllegalArgumentException naming the flag to fix
   */
  Map<String, String> catalogObject() {
    if (catalogUri == null && properties.isEmpty()) {
      return null;
    }
    Map<String, String> object = new LinkedHashMap<>();
    if (catalogUri != null) {
      object.putAll(Catalogs.forUri(catalogName, catalogUri, warehouse));
    } else {
      object.put(Catalogs.NAME, catalogName);
      if (warehouse != null) {
        object.put("warehouse", warehouse);
      }
    }
    properties.forEach(
        (key, value) -> {
          if (key.isBlank()) {
            throw new IllegalArgumentException("--catalog needs KEY=VALUE, got '=" + value + "'");
          }
          object.put(key, value);
        });
    if (catalogUri == null && !object.containsKey("type") && !object.containsKey("catalog-impl")) {
      throw new IllegalArgumentException(
          "--catalog without --catalog-uri needs type=... (rest, jdbc, ...) or catalog-impl=...,"
              + " e.g. --catalog type=rest --catalog uri=http://localhost:8181");
    }
    return object;
  }
}
