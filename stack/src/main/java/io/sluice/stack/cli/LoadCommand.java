package io.sluice.stack.cli;

import io.sluice.contract.ReadyFile;
import io.sluice.stack.db.LabTables;
import io.sluice.stack.db.TableWorkload;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sluice load}: deterministic inserts, updates and deletes on the lab's source tables. */
@Command(
    name = "load",
    mixinStandardHelpOptions = true,
    description = {
      "Writes a deterministic workload to each of --tables (created when missing): --rows"
          + " inserts, then --updates updates and --deletes deletes of distinct rows. The same"
          + " --seed gives the same rows, values and event ids; ids of seed S are S*100000000+1"
          + " onwards, so seeds do not collide.",
      "Tables: orders (key order_id), customers (key customer_id), order_items (composite key"
          + " order_id, line_no: three lines per order) and audit_log (no primary key: it reaches"
          + " the changelog table only).",
      "The database comes from --jdbc-url or from the ready file of `sluice up`."
    })
public final class LoadCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--seed", defaultValue = "1", description = "Workload seed (default: 1).")
  int seed;

  @Option(names = "--rows", required = true, description = "Rows to insert.")
  long rows;

  @Option(names = "--updates", defaultValue = "0", description = "Rows to update (default: 0).")
  long updates;

  @Option(names = "--deletes", defaultValue = "0", description = "Rows to delete (default: 0).")
  long deletes;

  @Option(
      names = "--tables",
      split = ",",
      paramLabel = "TABLE",
      description =
          "Tables of cdc_lab to write, comma-separated (default: orders,customers,order_items,"
              + "audit_log).")
  List<String> tables = LabTables.DEFAULT;

  @Option(
      names = "--ready-file",
      defaultValue = ".sluice/ready.json",
      description =
          "Ready file of `sluice up` to take the JDBC settings from (default: ${DEFAULT-VALUE}).")
  Path readyFile;

  @Option(names = "--jdbc-url", description = "JDBC URL; overrides the ready file.")
  String jdbcUrl;

  @Option(names = "--jdbc-user", description = "JDBC user (with --jdbc-url).")
  String jdbcUser;

  @Option(names = "--jdbc-password", description = "JDBC password (with --jdbc-url).")
  String jdbcPassword;

  @Override
  public Integer call() throws SQLException {
    if (rows < 0 || updates < 0 || deletes < 0 || seed < 0) {
      throw new ParameterException(
          spec.commandLine(), "--seed, --rows, --updates and --deletes must be >= 0");
    }
    if (updates > rows || deletes > rows) {
      throw new ParameterException(
          spec.commandLine(), "--updates and --deletes cannot exceed --rows (" + rows + ")");
    }
    List<TableWorkload> workloads = new ArrayList<>();
    for (String table : tables) {
      try {
        workloads.add(LabTables.workload(table.strip(), seed));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--tables: " + e.getMessage());
      }
    }
    resolveJdbc();
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter out = spec.commandLine().getOut();
    long started = System.nanoTime();
    try (Connection c = DriverManager.getConnection(jdbcUrl, jdbcUser, jdbcPassword)) {
      for (TableWorkload workload : workloads) {
        try (Statement s = c.createStatement()) {
          s.execute(workload.createSql());
        }
        long tableStarted = System.nanoTime();
        TableWorkload.Result result =
            workload.run(
                c,
                rows,
                updates,
                deletes,
                line -> {
                  err.println("load: " + line);
                  err.flush();
                });
        out.printf(
            "seed %d, %s: inserted %d, updated %d, deleted %d rows in %.1f s; last event id %d%n",
            seed,
            result.table(),
            result.inserted(),
            result.updated(),
            result.deleted(),
            (System.nanoTime() - tableStarted) / 1e9,
            result.lastEventId());
        out.flush();
      }
    }
    out.printf(
        "seed %d: %d table(s) in %.1f s%n",
        seed, workloads.size(), (System.nanoTime() - started) / 1e9);
    out.flush();
    return 0;
  }

  private void resolveJdbc() {
    if (jdbcUrl != null) {
      return;
    }
    if (!Files.exists(readyFile)) {
      throw new ParameterException(
          spec.commandLine(),
          "no --jdbc-url and no ready file at "
              + readyFile.toAbsolutePath()
              + "; start the stack with `scripts/sluice up --ready-file "
              + readyFile
              + "` or pass --jdbc-url/--jdbc-user/--jdbc-password");
    }
    Map<String, Object> ready = new ReadyFile(readyFile).read();
    Object url = ready.get(ReadyFile.JDBC_URL);
    if (url == null) {
      throw new ParameterException(
          spec.commandLine(),
          "ready file " + readyFile + " has no " + ReadyFile.JDBC_URL + "; pass --jdbc-url");
    }
    jdbcUrl = url.toString();
    jdbcUser = jdbcUser != null ? jdbcUser : String.valueOf(ready.get(ReadyFile.JDBC_USER));
    jdbcPassword =
        jdbcPassword != null ? jdbcPassword : String.valueOf(ready.get(ReadyFile.JDBC_PASSWORD));
  }
}
