package io.sluice.connect.upsert.sim;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.BaseMetastoreCatalog;
import org.apache.iceberg.BaseMetastoreTableOperations;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.jdbc.UncheckedSQLException;

/**
 * An Iceberg catalog over a {@link SimWorld}: Iceberg's own metastore table operations (metadata
 * files written to the world's store, an atomic swap of the table's pointer), with the world's
 * armed faults applied to the commits of catalogs opened with {@code sim.faulty=true} — the sink's.
 * Loaded by class name through {@code catalog-impl}, as any custom catalog.
 */
public final class SimCatalog extends BaseMetastoreCatalog {
  private String name;
  private Map<String, String> properties;
  private SimWorld world;
  private boolean faulty;

  public SimCatalog() {}

  @Override
  public void initialize(String name, Map<String, String> properties) {
    this.name = name;
    this.properties = Map.copyOf(properties);
    this.world = SimWorld.of(properties.get(SimWorld.WORLD_PROPERTY));
    this.faulty = Boolean.parseBoolean(properties.getOrDefault(SimWorld.FAULTY_PROPERTY, "false"));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  protected Map<String, String> properties() {
    return properties;
  }

  @Override
  protected TableOperations newTableOps(TableIdentifier id) {
    return new Ops(id);
  }

  @Override
  protected String defaultWarehouseLocation(TableIdentifier id) {
    return world.warehouse() + "/" + id.namespace() + "/" + id.name();
  }

  @Override
  public List<TableIdentifier> listTables(Namespace namespace) {
    return world.tables().stream().filter(t -> t.namespace().equals(namespace)).toList();
  }

  @Override
  public boolean dropTable(TableIdentifier id, boolean purge) {
    boolean existed = world.pointer(id) != null;
    world.drop(id);
    return existed;
  }

  @Override
  public void renameTable(TableIdentifier from, TableIdentifier to) {
    throw new UnsupportedOperationException("the simulation renames no table");
  }

  private final class Ops extends BaseMetastoreTableOperations {
    private final TableIdentifier id;

    Ops(TableIdentifier id) {
      this.id = id;
    }

    @Override
    protected String tableName() {
      return id.toString();
    }

    @Override
    public FileIO io() {
      return world.io;
    }

    @Override
    protected void doRefresh() {
      String location = world.pointer(id);
      if (location == null && currentMetadataLocation() != null) {
        throw new NoSuchTableException("table %s was dropped", id);
      }
      // Metadata files never change once written: parsed once per location (a deleted one still
      // fails the read, as the store is asked first).
      refreshFromMetadataLocation(
          location,
          null,
          20,
          at -> world.io.parsed(at, () -> TableMetadataParser.read(world.io, at)));
    }

    @Override
    protected void doCommit(TableMetadata base, TableMetadata metadata) {
      boolean create = base == null;
      String next = writeNewMetadataIfRequired(create, metadata);
      SimWorld.CommitFault fault = faulty ? world.nextFault() : null;
      if (fault != null) {
        world.event("fault " + fault + " on a commit to " + id);
      }
      if (fault == SimWorld.CommitFault.CONCURRENT_COMPACTION && !create) {
        world.runConcurrentWriter(id);
      }
      if (fault == SimWorld.CommitFault.CONCURRENT_SINK_COMMIT && !create) {
        world.runConcurrentSinkCommit(id);
      }
      if ((fault == SimWorld.CommitFault.CONCURRENT_UPDATE
              || fault == SimWorld.CommitFault.CONCURRENT_EQUALITY_UPSERT)
          && !create) {
        world.runConcurrentDml(id, fault);
      }
      if (fault == SimWorld.CommitFault.UNKNOWN_NOT_APPLIED) {
        throw new CommitStateUnknownException(new RuntimeException("simulated: not applied"));
      }
      if (fault == SimWorld.CommitFault.REFUSED_REST) {
        throw new RESTException("simulated: 503 from the catalog, not applied");
      }
      String expected = create ? null : base.metadataFileLocation();
      if (!world.swap(id, expected, next)) {
        if (create) {
          throw new AlreadyExistsException("table already exists: %s", id);
        }
        throw new CommitFailedException(
            "cannot commit %s: metadata location %s is no longer current", id, expected);
      }
      requestRefresh();
      if (fault == SimWorld.CommitFault.LOST_REPLY_REST) {
        throw new RESTException("simulated: reply of an applied commit lost (socket timeout)");
      }
      if (fault == SimWorld.CommitFault.LOST_REPLY_JDBC) {
        throw new UncheckedSQLException(
            new java.sql.SQLException("simulated: connection reset after the update"),
            "simulated: reply of an applied commit lost");
      }
      if (fault == SimWorld.CommitFault.UNKNOWN_APPLIED) {
        throw new CommitStateUnknownException(new RuntimeException("simulated: applied"));
      }
    }
  }
}
