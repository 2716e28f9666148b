package io.sluice.tools.monitor;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the Iceberg tables to watch at each refresh and re-reads each one's metadata into its
 * meters. Reads metadata only (the table's metadata file through the catalog), never a manifest or
 * data file. A table that cannot be loaded is counted and logged and keeps its last values; the
 * others go on. A table no longer listed loses its series.
 *
 * <p>Memory: per table, the loaded {@link Table} (its current metadata, which Iceberg re-reads only
 * when the metadata location moved) and a constant-size {@link TableCommits} watermark.
 */
final class IcebergWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(IcebergWatcher.class);

  private final IcebergSettings settings;
  private final IcebergMetrics metrics;
  private final Function<IcebergSettings, Catalog> opener;
  private final Map<TableIdentifier, Watch> watches = new TreeMap<>(IcebergWatcher::compare);
  private final Set<TableIdentifier> reportedMissing = new LinkedHashSet<>();
  private Catalog catalog;

  IcebergWatcher(
      IcebergSettings settings, IcebergMetrics metrics, Function<IcebergSettings, Catalog> opener) {
    this.settings = settings;
    this.metrics = metrics;
    this.opener = opener;
  }

  /**
   * Opens the catalog if needed, lists the tables, reads each one; the number of tables watched.
   *
   * @throws RuntimeException when the catalog cannot be opened or listed (nothing is read then)
   */
  int refresh() {
    if (catalog == null) {
      catalog = opener.apply(settings);
      log.info("reading Iceberg table metadata from catalog {}", settings.describeCatalog());
    }
    Set<TableIdentifier> listed = list();
    reportedMissing.retainAll(listed);
    for (Iterator<Watch> it = watches.values().iterator(); it.hasNext(); ) {
      Watch watch = it.next();
      if (!listed.contains(watch.id)) {
        log.info("Iceberg table {} is gone; its metrics are removed", watch.id);
        watch.close();
        it.remove();
      }
    }
    for (TableIdentifier id : listed) {
      Watch watch = watches.computeIfAbsent(id, Watch::new);
      if (!watch.refresh()) {
        watch.close();
        watches.remove(id);
      }
    }
    return watches.size();
  }

  /**
   * The tables the settings name now: every table, or those of the listed namespaces and tables.
   */
  private Set<TableIdentifier> list() {
    SupportsNamespaces namespaces =
        catalog instanceof SupportsNamespaces supports ? supports : null;
    Set<TableIdentifier> tables = new LinkedHashSet<>();
    if (settings.tables().isEmpty()) {
      List<Namespace> all = new ArrayList<>();
      if (namespaces != null) {
        collectNamespaces(namespaces, Namespace.empty(), all);
      }
      for (Namespace namespace : all) {
        tables.addAll(tablesOf(namespace));
      }
      return tables;
    }
    for (String entry : settings.tables()) {
      Namespace namespace = Namespace.of(entry.split("\\."));
      if (namespaces != null && namespaces.namespaceExists(namespace)) {
        tables.addAll(tablesOf(namespace));
      } else {
        tables.add(TableIdentifier.parse(entry));
      }
    }
    return tables;
  }

  private static void collectNamespaces(
      SupportsNamespaces catalog, Namespace parent, List<Namespace> into) {
    for (Namespace child : catalog.listNamespaces(parent)) {
      into.add(child);
      collectNamespaces(catalog, child, into);
    }
  }

  /** The namespace's tables; none when it was dropped since it was listed. */
  private List<TableIdentifier> tablesOf(Namespace namespace) {
    try {
      return catalog.listTables(namespace);
    } catch (NoSuchNamespaceException e) {
      return List.of();
    }
  }

  /** Removes every table's series and closes the catalog. */
  @Override
  public void close() {
    watches.values().forEach(Watch::close);
    watches.clear();
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException | RuntimeException e) {
        log.warn("closing Iceberg catalog {} failed: {}", settings.catalogName(), e.toString());
      }
    }
  }

  private static int compare(TableIdentifier a, TableIdentifier b) {
    return a.toString().compareTo(b.toString());
  }

  /** One table: its loaded metadata, watermark and meters. */
  private final class Watch implements AutoCloseable {
    private final TableIdentifier id;
    private final TableCommits commits = new TableCommits();
    private final IcebergMetrics.TableMeters meters;
    private Table table;
    private String failure;

    Watch(TableIdentifier id) {
      this.id = id;
      this.meters = metrics.table(id.toString());
    }

    /** Reads the table's metadata into its meters; false when the table does not exist. */
    boolean refresh() {
      try {
        if (table == null) {
          table = catalog.loadTable(id);
        } else {
          table.refresh();
        }
        meters.publish(commits.read(table));
        if (failure != null) {
          log.info("Iceberg table {} loads again", id);
          failure = null;
        }
        reportedMissing.remove(id);
        return true;
      } catch (NoSuchTableException e) {
        // Dropped since it was listed, or named by the settings and not created (yet).
        if (reportedMissing.add(id)) {
          log.info("Iceberg table {} does not exist (yet)", id);
        }
        return false;
      } catch (RuntimeException e) {
        table = null;
        meters.loadFailed();
        String error = RefreshTask.describe(e);
        if (!error.equals(failure)) {
          log.warn(
              "Iceberg table {} cannot be loaded; counted, retried next refresh: {}", id, error);
        }
        failure = error;
        return true;
      }
    }

    @Override
    public void close() {
      meters.close();
    }
  }
}
