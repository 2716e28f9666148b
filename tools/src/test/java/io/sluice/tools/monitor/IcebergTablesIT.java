package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.embedded.EmbeddedKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The monitor's Iceberg part on a real catalog: a JdbcCatalog on SQLite with a local warehouse, as
 * the embedded stack keeps it, written through a catalog of its own (as a sink in another process
 * would) with Iceberg's API - appends, row deltas with equality deletes, deletes - and every value
 * checked by scraping {@code /metrics} over HTTP. The committed files exist in the metadata only:
 * the monitor reads no data file, or it would fail.
 */
class IcebergTablesIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final TableIdentifier CURRENT = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TableIdentifier CHANGELOG =
      TableIdentifier.of("cdc_lab", "orders_changelog");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static EmbeddedKafka kafka;
  private static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void startBroker() {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"));
  }

  @AfterAll
  static void stopBroker() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void commitsRecordsAndDeleteFilesFollowEachTablesMetadata() throws Exception {
    Map<String, String> catalogObject = catalogObject(dir.resolve("lake"));
    Catalog writer = writerCatalog(catalogObject);
    ((SupportsNamespaces) writer).createNamespace(Namespace.of("cdc_lab"));
    Table changelog = writer.createTable(CHANGELOG, LakeFixtures.ORDERS);
    Table current = writer.createTable(CURRENT, LakeFixtures.ORDERS);
    DataFile firstChangelogFile = LakeFixtures.append(changelog, 2);

    MonitorSettings settings =
        MonitorSettings.defaults(kafka.bootstrapServers())
            .withRefreshInterval(Duration.ofMillis(500))
            .withIcebergCatalog(catalogObject)
            .withIcebergRefreshInterval(Duration.ofMillis(200));
    try (PipelineMonitor monitor = PipelineMonitor.start(settings)) {
      long firstCommitMs = changelog.currentSnapshot().timestampMillis();
      await("both tables read; a commit made before the start is in the gauges, not the counter")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                Scrape scrape = Scrape.fetch(monitor.metricsUrl());
                assertThat(commits(scrape, CHANGELOG, "append")).hasValue(0);
                assertThat(table(scrape, "sluice_iceberg_table_records", CHANGELOG)).hasValue(2);
                assertThat(table(scrape, "sluice_iceberg_table_data_files", CHANGELOG)).hasValue(1);
                assertThat(table(scrape, "sluice_iceberg_table_snapshots", CHANGELOG)).hasValue(1);
                assertThat(
                        table(
                            scrape,
                            "sluice_iceberg_table_last_commit_timestamp_seconds",
                            CHANGELOG))
                    .hasValue(firstCommitMs / 1000.0);
                assertThat(table(scrape, "sluice_iceberg_table_records", CURRENT)).hasValue(0);
                assertThat(commits(scrape, CURRENT, "overwrite")).hasValue(0);
                assertThat(
                        table(
                            scrape, "sluice_iceberg_table_last_commit_timestamp_seconds", CURRENT))
                    .as("no commit yet")
                    .isEmpty();
                JsonNode health = health(monitor);
                assertThat(health.path("status").asText()).isEqualTo("RUNNING");
                assertThat(health.path("iceberg").path("tables").asInt()).isEqualTo(2);
              });

      // The upsert sink: a first batch of inserts, then a batch updating two of those keys.
      LakeFixtures.append(current, 3);
      LakeFixtures.upsert(current, 2, 2);
      LakeFixtures.append(changelog, 5);
      changelog.newDelete().deleteFile(firstChangelogFile).commit();

      await("each commit counted once by operation; totals of the current snapshots")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                Scrape scrape = Scrape.fetch(monitor.metricsUrl());
                assertThat(commits(scrape, CURRENT, "append")).hasValue(1);
                assertThat(commits(scrape, CURRENT, "overwrite")).hasValue(1);
                assertThat(table(scrape, "sluice_iceberg_table_records", CURRENT)).hasValue(5);
                assertThat(table(scrape, "sluice_iceberg_table_data_files", CURRENT)).hasValue(2);
                assertThat(table(scrape, "sluice_iceberg_table_delete_files", CURRENT)).hasValue(1);
                assertThat(table(scrape, "sluice_iceberg_table_equality_deletes", CURRENT))
                    .hasValue(2);
                assertThat(
                        table(
                            scrape, "sluice_iceberg_table_last_commit_timestamp_seconds", CURRENT))
                    .hasValue(current.currentSnapshot().timestampMillis() / 1000.0);
                assertThat(commits(scrape, CHANGELOG, "append")).hasValue(1);
                assertThat(commits(scrape, CHANGELOG, "delete")).hasValue(1);
                assertThat(table(scrape, "sluice_iceberg_table_records", CHANGELOG)).hasValue(5);
                assertThat(table(scrape, "sluice_iceberg_table_snapshots", CHANGELOG)).hasValue(3);
              });

      // The catalog points the changelog at a metadata file that is not there (lost, or a
      // half-done copy): that table fails, the other goes on.
      pointAtMissingMetadata(catalogObject, CHANGELOG);
      LakeFixtures.upsert(current, 1, 1);

      await("the unloadable table is counted; the other table's commit is seen")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                Scrape scrape = Scrape.fetch(monitor.metricsUrl());
                assertThat(
                        table(scrape, "sluice_iceberg_table_load_failures_total", CHANGELOG)
                            .orElse(0))
                    .isGreaterThan(0);
                assertThat(commits(scrape, CURRENT, "overwrite")).hasValue(2);
                assertThat(table(scrape, "sluice_iceberg_table_equality_deletes", CURRENT))
                    .hasValue(3);
                assertThat(table(scrape, "sluice_iceberg_table_load_failures_total", CURRENT))
                    .hasValue(0);
                assertThat(table(scrape, "sluice_iceberg_table_records", CHANGELOG))
                    .as("the last values read stay")
                    .hasValue(5);
              });
      assertThat(status(monitor.healthUrl()))
          .as("one table that cannot be loaded does not fail the monitor")
          .isEqualTo(200);

      writer.dropTable(CURRENT, false);
      await("a dropped table loses its series")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                Scrape scrape = Scrape.fetch(monitor.metricsUrl());
                assertThat(
                        scrape.hasLabel(
                            "sluice_iceberg_table_records", "table", "cdc_lab.orders_current"))
                    .isFalse();
                assertThat(health(monitor).path("iceberg").path("tables").asInt()).isEqualTo(1);
              });
      assertThat(
              Scrape.fetch(monitor.metricsUrl())
                  .value("sluice_iceberg_refresh_failures_total", Map.of()))
          .hasValue(0);
    } finally {
      if (writer instanceof AutoCloseable closeable) {
        closeable.close();
      }
    }
  }

  /** The catalog as the embedded stack's ready file names it: a JdbcCatalog on SQLite. */
  private static Map<String, String> catalogObject(Path lake) throws Exception {
    Files.createDirectories(lake.resolve("warehouse"));
    Map<String, String> catalog = new LinkedHashMap<>();
    catalog.put("name", "it");
    catalog.put("type", "jdbc");
    catalog.put("uri", "jdbc:sqlite:" + lake.resolve("catalog.db"));
    catalog.put("jdbc.schema-version", "V1");
    catalog.put("warehouse", lake.resolve("warehouse").toUri().toString());
    return catalog;
  }

  /** Moves the table's metadata pointer in the JdbcCatalog's own table to a missing file. */
  private static void pointAtMissingMetadata(Map<String, String> catalogObject, TableIdentifier id)
      throws Exception {
    try (Connection c = DriverManager.getConnection(catalogObject.get("uri"));
        PreparedStatement update =
            c.prepareStatement(
                "UPDATE iceberg_tables SET metadata_location = metadata_location || '.missing'"
                    + " WHERE table_namespace = ? AND table_name = ?")) {
      update.setString(1, id.namespace().toString());
      update.setString(2, id.name());
      assertThat(update.executeUpdate()).as("catalog rows of %s", id).isEqualTo(1);
    }
  }

  private static Catalog writerCatalog(Map<String, String> catalogObject) {
    Map<String, String> properties = new LinkedHashMap<>(catalogObject);
    String name = properties.remove("name");
    Configuration hadoop = new Configuration();
    hadoop.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
    return CatalogUtil.buildIcebergCatalog(name, properties, hadoop);
  }

  private static OptionalDouble table(Scrape scrape, String metric, TableIdentifier table) {
    return scrape.value(metric, Map.of("table", table.toString()));
  }

  private static OptionalDouble commits(Scrape scrape, TableIdentifier table, String operation) {
    return scrape.value(
        "sluice_iceberg_table_commits_total",
        Map.of("table", table.toString(), "operation", operation));
  }

  private static JsonNode health(PipelineMonitor monitor) throws Exception {
    return JSON.readTree(
        http.send(
                HttpRequest.newBuilder(URI.create(monitor.healthUrl())).build(),
                HttpResponse.BodyHandlers.ofString())
            .body());
  }

  private static int status(String url) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }
}
