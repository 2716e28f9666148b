package io.sluice.connect.guard;

import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * Table schemas from the catalog the Apache sink writes to. The catalog is opened when the guard is
 * configured, so a catalog that cannot be opened fails the task at its start, as it fails the sink.
 * A catalog that cannot answer later (unreachable, storage failing) is a {@link
 * RetriableException}: Connect retries the record ({@code errors.retry.timeout}) and never sends it
 * to the DLQ for an outage.
 */
final class CatalogTables implements TableFits.Loader, AutoCloseable {
  private final LakeCatalog catalog;

  CatalogTables(Map<String, String> catalogObject, Map<String, String> hadoop) {
    this.catalog = withOwnClassLoader(() -> Catalogs.open(catalogObject, hadoop));
  }

  /**
   * Runs {@code work} with this plugin's class loader as the thread's context loader. The guard
   * runs in the changelog connector's task, whose context loader is the Apache sink's plugin:
   * Iceberg loads catalog and FileIO classes through it ({@code CatalogUtil}), and a JdbcCatalog of
   * that plugin "does not implement Catalog" of this one.
   */
  private static <T> T withOwnClassLoader(Supplier<T> work) {
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    thread.setContextClassLoader(CatalogTables.class.getClassLoader());
    try {
      return work.get();
    } finally {
      thread.setContextClassLoader(before);
    }
  }

  @Override
  public Optional<Schema> load(TableIdentifier table) {
    try {
      return Optional.of(withOwnClassLoader(() -> catalog.catalog().loadTable(table).schema()));
    } catch (NoSuchTableException | NoSuchNamespaceException e) {
      return Optional.empty();
    } catch (RuntimeException e) {
      throw new RetriableException(
          "cannot load table "
              + table
              + " from Iceberg catalog "
              + catalog.catalog().name()
              + " to check records against it (retried): "
              + e,
          e);
    }
  }

  @Override
  public void close() {
    withOwnClassLoader(
        () -> {
          catalog.close();
          return null;
        });
  }
}
