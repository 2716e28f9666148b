package io.sluice.tools.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sluice.contract.ReadyFile;
import io.sluice.lake.LakeCatalog;
import io.sluice.tools.cli.CatalogOptions;
import io.sluice.tools.cli.CommandReadyFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/** {@code sluice reconcile}: source rows over JDBC against the Iceberg current table. */
@Command(
    name = "reconcile",
    mixinStandardHelpOptions = true,
    description = {
      "Compares a source table (over JDBC) with its Iceberg table as Iceberg's own reader sees it"
          + " (deletes applied): both become canonical rows (every column a string, timestamps"
          + " yyyy-MM-dd HH:mm:ss.SSS, one JSON object per line) sorted by primary key; prints row"
          + " counts, the sha256 of each side and the rows that differ.",
      "With --all: every base table of the JDBC URL's database (or of each --database) against"
          + " its <db>.<table>_current, one line per table and a summary; a table without a"
          + " primary key is skipped (changelog-only), a keyed table whose current table does not"
          + " exist yet drifts when the source has rows.",
      "With --output, the JSON also lists each side's rows as canonical row objects in"
          + " primary-key order (at most --report-rows each, with the full counts and a truncation"
          + " flag).",
      "Exit code 0 when both sides hold the same rows (with --all: every table), 1 when they"
          + " differ, 2 on a usage error.",
      "Memory stays bounded: the source streams in key order (a key with a text column is"
          + " sorted like the Iceberg rows), Iceberg rows go through an external sort in a"
          + " temporary dir."
    })
public final class ReconcileCommand implements Callable<Integer> {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Spec CommandSpec spec;

  @Option(
      names = "--table",
      defaultValue = "cdc_lab.orders",
      description = "Source table <db>.<table> (default: ${DEFAULT-VALUE}).")
  String table;

  @Option(
      names = "--all",
      description =
          "Reconcile every base table of the database(s) with its <db>.<table>_current instead of"
              + " one --table.")
  boolean all;

  @Option(
      names = "--database",
      paramLabel = "NAME",
      description =
          "With --all: the database whose tables to reconcile, repeatable (default: the JDBC"
              + " URL's database).")
  List<String> databases;

  @Option(
      names = "--iceberg-table",
      description = "Iceberg table <namespace>.<table> (default: <db>.<table>_current).")
  String icebergTable;

  @Mixin CatalogOptions catalog;

  @Option(names = "--jdbc-url", description = "JDBC URL; overrides the ready file.")
  String jdbcUrl;

  @Option(names = "--jdbc-user", description = "JDBC user (with --jdbc-url).")
  String jdbcUser;

  @Option(names = "--jdbc-password", description = "JDBC password (with --jdbc-url).")
  String jdbcPassword;

  @Option(
      names = "--output",
      description =
          "Also write the result as JSON to this file (the report's reconciliation; with --all"
              + " one such object per table and a summary).")
  Path output;

  @Option(
      names = "--report-rows",
      paramLabel = "N",
      defaultValue = "" + Reconciler.DEFAULT_ROW_LIMIT,
      description =
          "With --output: at most how many rows of each side, in primary-key order, the JSON lists"
              + " as mysql_rows and iceberg_rows (per table with --all); the counts and the"
              + " sha256s cover every row; 0 lists none (default: ${DEFAULT-VALUE}).")
  int reportRows;

  @Option(
      names = "--list",
      defaultValue = "20",
      description = "How many differing rows to print per side (default: ${DEFAULT-VALUE}).")
  int list;

  @Option(
      names = "--temp-dir",
      description = "Where the external sort spills (default: java.io.tmpdir).")
  Path tempDir;

  @Override
  public Integer call() throws SQLException, IOException {
    checkUsage();
    if (all) {
      return callAll();
    }
    String[] parts = table.split("\\.");
    if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
      throw new ParameterException(
          spec.commandLine(), "--table must be <db>.<table>, got '" + table + "'");
    }
    String iceberg = icebergTable != null ? icebergTable : table + "_current";
    Reconciler reconciler = reconciler();
    long started = System.nanoTime();
    ReconcileResult result;
    try (LakeCatalog lake = catalog.open(spec.commandLine());
        Connection c = openJdbc()) {
      result = reconciler.reconcile(c, parts[0], parts[1], lake.table(iceberg));
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    print(result, iceberg, seconds);
    if (output != null) {
      Files.writeString(output, JSON.writeValueAsString(ReconciliationReport.of(result)));
    }
    return result.converged() ? 0 : 1;
  }

  private void checkUsage() {
    ParseResult parsed = spec.commandLine().getParseResult();
    if (reportRows < 0) {
      throw new ParameterException(
          spec.commandLine(),
          "--report-rows must be 0 or more, got " + reportRows + "; 0 lists no rows, counts only");
    }
    if (parsed.hasMatchedOption("--report-rows") && output == null) {
      throw new ParameterException(
          spec.commandLine(),
          "--report-rows needs --output: only the JSON lists rows; the console lists the"
              + " differing ones (--list)");
    }
    if (all) {
      for (String single : List.of("--table", "--iceberg-table")) {
        if (parsed.hasMatchedOption(single)) {
          throw new ParameterException(
              spec.commandLine(),
              "--all and "
                  + single
                  + " are mutually exclusive: --all reconciles every table of the database(s)"
                  + " (narrow it with --database), "
                  + single
                  + " one table");
        }
      }
    } else if (parsed.hasMatchedOption("--database")) {
      throw new ParameterException(
          spec.commandLine(), "--database needs --all; one table is --table <db>.<table>");
    }
  }

  private Integer callAll() throws SQLException, IOException {
    long started = System.nanoTime();
    PrintWriter out = spec.commandLine().getOut();
    List<TableOutcome> outcomes;
    try (LakeCatalog lake = catalog.open(spec.commandLine());
        Connection c = openJdbc()) {
      List<String> dbs = databases != null ? databases : urlDatabase(c);
      List<SourceTable> tables = SourceTables.discover(c, dbs);
      if (tables.isEmpty()) {
        throw new IllegalArgumentException(
            "no base table in database(s) "
                + dbs
                + ": check --database and the JDBC user's rights");
      }
      // Each table's line as it finishes: a run over many tables shows its findings early.
      outcomes =
          new AllTablesReconciler(reconciler(), progress())
              .reconcile(
                  c,
                  lake.catalog(),
                  tables,
                  o -> {
                    AllTablesOutput.print(out, o);
                    out.flush();
                  });
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    AllTablesOutput.summary(out, outcomes, seconds);
    out.flush();
    if (output != null) {
      Files.writeString(output, AllTablesReport.json(outcomes));
    }
    return AllTablesReport.converged(outcomes) ? 0 : 1;
  }

  private List<String> urlDatabase(Connection c) throws SQLException {
    String db = c.getCatalog();
    if (db == null || db.isBlank()) {
      throw new ParameterException(
          spec.commandLine(),
          "--all needs a database: the JDBC URL names none; pass --database NAME");
    }
    return List.of(db);
  }

  private Reconciler reconciler() {
    return new Reconciler(
        tempDir != null ? tempDir : Path.of(System.getProperty("java.io.tmpdir")),
        Reconciler.DEFAULT_RUN_SIZE,
        Math.max(list, 0),
        // Rows are kept only for the JSON: without it, none.
        output != null ? reportRows : 0,
        progress());
  }

  private Consumer<String> progress() {
    PrintWriter err = spec.commandLine().getErr();
    return line -> {
      err.println(line);
      err.flush();
    };
  }

  private void print(ReconcileResult r, String iceberg, double seconds) {
    PrintWriter out = spec.commandLine().getOut();
    out.printf("source  %-32s %10d rows  sha256 %s%n", table, r.sourceRows(), r.sourceSha256());
    out.printf("iceberg %-32s %10d rows  sha256 %s%n", iceberg, r.actualRows(), r.actualSha256());
    out.printf(
        "%s: %d differing rows (%.1f s, %.0f rows/s)%n",
        r.converged() ? "CONVERGED" : "DIFFERENT",
        r.diffCount(),
        seconds,
        (r.sourceRows() + r.actualRows()) / Math.max(seconds, 1e-9));
    r.missingFromActual().forEach(line -> out.println("  missing from iceberg: " + line));
    r.unexpectedInActual().forEach(line -> out.println("  unexpected in iceberg: " + line));
    out.flush();
  }

  private Connection openJdbc() throws SQLException {
    if (jdbcUrl == null) {
      CommandReadyFile file = new CommandReadyFile(catalog.readyFile(), spec.commandLine());
      JsonNode ready = file.read(true);
      jdbcUrl = ReadyFile.text(ready, ReadyFile.JDBC_URL);
      if (jdbcUrl == null) {
        throw file.missing("--jdbc-url", ReadyFile.JDBC_URL);
      }
      jdbcUser = jdbcUser != null ? jdbcUser : ReadyFile.text(ready, ReadyFile.JDBC_USER);
      jdbcPassword =
          jdbcPassword != null ? jdbcPassword : ReadyFile.text(ready, ReadyFile.JDBC_PASSWORD);
    }
    return DriverManager.getConnection(jdbcUrl, jdbcUser, jdbcPassword);
  }
}
