package io.sluice.bench.cli;

import io.sluice.bench.ReconcileBench;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sluice bench reconcile --rows N}. */
@Command(
    name = "reconcile",
    mixinStandardHelpOptions = true,
    description = {
      "Loads N orders rows into a throwaway MariaDB and the same rows into an Iceberg table"
          + " (JdbcCatalog on SQLite), then times one `sluice reconcile` of the two and prints"
          + " rows/s and the most heap in use during it, sampled every 20 ms (target: 1M rows in"
          + " <= 30 s on 2 cores, heap bounded: it runs in -Xmx192m). Setting up is not timed."
    })
final class ReconcileBenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--rows",
      defaultValue = "1000000",
      description = "Rows (default: ${DEFAULT-VALUE}).")
  long rows;

  @Option(
      names = "--seed",
      defaultValue = "1",
      description = "Workload seed (default: ${DEFAULT-VALUE}).")
  int seed;

  @Override
  public Integer call() throws IOException, SQLException {
    if (rows < 1) {
      throw new ParameterException(spec.commandLine(), "--rows must be >= 1, got " + rows);
    }
    PrintWriter err = spec.commandLine().getErr();
    Path dir = Files.createTempDirectory("sluice-bench-reconcile-");
    try {
      ReconcileBench.Result r =
          new ReconcileBench(
                  dir,
                  line -> {
                    err.println(line);
                    err.flush();
                  })
              .run(rows, seed);
      PrintWriter out = spec.commandLine().getOut();
      out.printf(
          "reconcile: %d rows per side in %.2f s = %.0f rows/s; heap in use at most %d MB (-Xmx %d MB);"
              + " %s%n",
          r.rows(),
          r.seconds(),
          r.rowsPerSecond(),
          r.peakHeapBytes() >> 20,
          r.maxHeapBytes() >> 20,
          r.converged() ? "converged" : "NOT converged (bench bug)");
      out.flush();
      return r.converged() ? 0 : 1;
    } finally {
      try (Stream<Path> paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
