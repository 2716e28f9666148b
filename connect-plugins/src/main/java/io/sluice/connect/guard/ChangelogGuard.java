package io.sluice.connect.guard;

import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.transforms.Transformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A transform (SMT) for the Apache Iceberg sink that refuses, at the transform stage, a record its
 * table cannot take. Connect's {@code errors.tolerance} covers converters and transforms but not a
 * sink's {@code put()}: a record the sink cannot write (a column that was long and a record of a
 * newer schema version bringing it as string) fails the sink's task, while the same record refused
 * here goes to the connector's DLQ with Connect's {@code __connect.errors.*} headers and the task
 * goes on.
 *
 * <p>It goes last in the chain, after the transforms that make the row the sink writes ({@code
 * DebeziumTransform}, {@code KafkaMetadataTransform}), and finds the row's table as the sink's
 * dynamic routing does ({@link ChangelogGuardConfig#ROUTE_FIELD_CONFIG}). What fits is {@link
 * TableFit}'s rules against the table's current schema, cached and reloaded before a refusal; a
 * table that does not exist yet takes any first record. The refusal is a {@link DataException}
 * naming the record's coordinates, the column and both types, never a value. A catalog that cannot
 * answer is a {@link RetriableException} (retried, never dead-lettered).
 */
public class ChangelogGuard<R extends ConnectRecord<R>> implements Transformation<R>, Versioned {
  private static final Logger log = LoggerFactory.getLogger(ChangelogGuard.class);

  private String routeField;
  private String[] routePath;
  private TableFits fits;
  private AutoCloseable catalog;
  private boolean faultLogged;

  @Override
  public void configure(Map<String, ?> props) {
    ChangelogGuardConfig config = new ChangelogGuardConfig(props);
    CatalogTables tables = new CatalogTables(config.catalogObject(), config.hadoop());
    configure(
        config.routeField(),
        new TableFits(
            tables, config.schemaEvolution(), config.tableRefreshIntervalMs(), System::nanoTime),
        tables);
  }

  /** Configures with ready collaborators (tests). */
  void configure(String routeField, TableFits fits, AutoCloseable catalog) {
    this.routeField = routeField;
    this.routePath = routeField.split("\\.");
    this.fits = fits;
    this.catalog = catalog;
  }

  @Override
  public R apply(R record) {
    if (!(record.value() instanceof Struct value)) {
      return record;
    }
    String route = routeValue(value);
    if (route == null) {
      return record;
    }
    // The sink's dynamic routing lower-cases the route value (SinkWriter, Iceberg 1.12).
    String table = route.toLowerCase(Locale.ROOT);
    Misfit misfit;
    try {
      misfit = fits.check(table, value.schema());
    } catch (RetriableException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new DataException(
          where(record)
              + ": the value of "
              + routeField
              + " is not a table name (namespace.table), so the Apache Iceberg sink cannot route"
              + " it; it goes to the connector's DLQ",
          e);
    } catch (RuntimeException e) {
      // A fault of the guard itself must not send records to the DLQ: Connect's error tolerance
      // would dead-letter every record that raises it. Such a record goes to the sink unchecked.
      if (!faultLogged) {
        faultLogged = true;
        log.warn(
            "Changelog guard failed on a record of table {}; records it fails on pass unchecked",
            table,
            e);
      }
      return record;
    }
    if (misfit == null) {
      return record;
    }
    throw new DataException(refusal(record, table, misfit));
  }

  private String routeValue(Struct value) {
    Object current = value;
    for (String name : routePath) {
      if (!(current instanceof Struct struct)) {
        return null;
      }
      Field field = struct.schema().field(name);
      if (field == null) {
        return null;
      }
      current = struct.get(field);
    }
    return current == null ? null : current.toString();
  }

  static String refusal(ConnectRecord<?> record, String table, Misfit misfit) {
    return where(record)
        + " cannot be written to table "
        + table
        + ": "
        + misfit.describe()
        + ". The Apache Iceberg sink would fail its task on it, so it goes to the connector's DLQ."
        + " Replay it (sluice dlq replay) once the table can take it, where Iceberg allows that"
        + " change; else repair it to the schema version the table follows (sluice dlq repair"
        + " --strategy avro-reencode --target-version N).";
  }

  /** {@code record <topic>-<partition>@<offset>}, the coordinates it was read at. */
  static String where(ConnectRecord<?> record) {
    if (record instanceof SinkRecord sink) {
      return "record "
          + sink.originalTopic()
          + "-"
          + sink.originalKafkaPartition()
          + "@"
          + sink.originalKafkaOffset();
    }
    return "record of " + record.topic() + "-" + record.kafkaPartition();
  }

  @Override
  public ConfigDef config() {
    return ChangelogGuardConfig.configDef();
  }

  @Override
  public String version() {
    String version = ChangelogGuard.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }

  @Override
  public void close() {
    if (catalog != null) {
      try {
        catalog.close();
      } catch (Exception e) {
        log.warn("Closing the changelog guard's catalog failed: {}", e.toString());
      }
    }
  }
}
