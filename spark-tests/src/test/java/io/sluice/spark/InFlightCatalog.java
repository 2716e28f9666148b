package io.sluice.spark;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.jdbc.JdbcCatalog;

/**
 * A JdbcCatalog whose next commit to a table can be made to wait for another writer: an action
 * armed with {@link #beforeNextCommit} runs once, on the committing thread, after the writer
 * refreshed and validated its change and before it swaps the table's metadata. So another engine's
 * commit lands exactly inside a sink commit in flight, and Iceberg's retry of the sink's commit
 * meets it (refresh, validate again, swap). Configured as any custom catalog, through {@code
 * catalog-impl}; every instance in the JVM shares the armed actions.
 */
public final class InFlightCatalog extends JdbcCatalog {
  private static final Map<TableIdentifier, Armed> ARMED = new ConcurrentHashMap<>();

  private record Armed(Thread committer, Runnable action) {}

  /**
   * Runs {@code action} once, inside the next commit to {@code table} that the calling thread makes
   * through any instance: the sink task's own commit, not its maintenance thread's.
   */
  static void beforeNextCommit(TableIdentifier table, Runnable action) {
    ARMED.put(table, new Armed(Thread.currentThread(), action));
  }

  /** Whether the action armed for {@code table} has not run yet. */
  static boolean armed(TableIdentifier table) {
    return ARMED.containsKey(table);
  }

  static void disarm() {
    ARMED.clear();
  }

  @Override
  protected TableOperations newTableOps(TableIdentifier table) {
    return new Ops(super.newTableOps(table), table);
  }

  private static final class Ops implements TableOperations {
    private final TableOperations delegate;
    private final TableIdentifier table;

    Ops(TableOperations delegate, TableIdentifier table) {
      this.delegate = delegate;
      this.table = table;
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      // Removed before it runs: the armed writer's own commit goes through untouched.
      Armed armed = ARMED.get(table);
      if (armed != null
          && armed.committer() == Thread.currentThread()
          && ARMED.remove(table, armed)) {
        armed.action().run();
      }
      delegate.commit(base, metadata);
    }

    @Override
    public TableMetadata current() {
      return delegate.current();
    }

    @Override
    public TableMetadata refresh() {
      return delegate.refresh();
    }

    @Override
    public FileIO io() {
      return delegate.io();
    }

    @Override
    public EncryptionManager encryption() {
      return delegate.encryption();
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return delegate.metadataFileLocation(fileName);
    }

    @Override
    public LocationProvider locationProvider() {
      return delegate.locationProvider();
    }

    @Override
    public TableOperations temp(TableMetadata uncommitted) {
      return delegate.temp(uncommitted);
    }

    @Override
    public long newSnapshotId() {
      return delegate.newSnapshotId();
    }

    @Override
    public boolean requireStrictCleanup() {
      return delegate.requireStrictCleanup();
    }
  }
}
