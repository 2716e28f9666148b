package io.sluice.connect.upsert.sim;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Seeded schedules of the upsert sink's interleavings ({@link Simulation}) against a model of the
 * source. The suite runs {@value #SUITE_SEEDS} seeds; {@code -Dsluice.sim.seeds=N} runs N, {@code
 * -Dsluice.sim.seed=S} replays one (with the sink's log when {@code -Dsluice.sim.log=true}); {@code
 * -Dsluice.sim.threads=T} runs T schedules at a time (default: one per processor).
 */
class SinkSimulationTest {
  private static final int SUITE_SEEDS = 600;
  private static final int STEPS = Integer.getInteger("sluice.sim.steps", 60);
  // -Dsluice.sim.keep-going=true runs every seed and reports all that fail, not the first only.
  private static final boolean KEEP_GOING = Boolean.getBoolean("sluice.sim.keep-going");
  private static final int THREADS =
      Integer.getInteger("sluice.sim.threads", Runtime.getRuntime().availableProcessors());
  private static final List<String> QUIET =
      List.of("io.sluice.connect.upsert", "org.apache.iceberg", "io.sluice.connect.upsert.sim");
  private static final List<Level> saved = new ArrayList<>();

  @BeforeAll
  static void quiet() {
    if (!Boolean.getBoolean("sluice.sim.log")) {
      for (String name : QUIET) {
        Logger logger = (Logger) LoggerFactory.getLogger(name);
        saved.add(logger.getLevel());
        logger.setLevel(Level.OFF);
      }
    }
  }

  @AfterAll
  static void loud() {
    for (int i = 0; i < saved.size(); i++) {
      ((Logger) LoggerFactory.getLogger(QUIET.get(i))).setLevel(saved.get(i));
    }
  }

  @Test
  void everySeededScheduleKeepsTheLakeEqualToTheSource() throws Exception {
    String one = System.getProperty("sluice.sim.seed");
    long first = Long.getLong("sluice.sim.first-seed", 1);
    int seeds = Integer.getInteger("sluice.sim.seeds", SUITE_SEEDS);
    List<Long> run = new ArrayList<>();
    if (one != null) {
      run.add(Long.parseLong(one));
    } else {
      for (long s = first; s < first + seeds; s++) {
        run.add(s);
      }
    }
    long started = System.nanoTime();
    int faults = 0;
    int zombies = 0;
    int dlq = 0;
    Map<String, Integer> modes = new TreeMap<>();
    Map<String, Integer> operations = new TreeMap<>();
    List<String> failed = new ArrayList<>();
    // Each schedule runs on one thread in an order its seed decides, in a world of its own: they
    // run side by side, and are reported in seed order.
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    List<Future<Simulation.Outcome>> outcomes = new ArrayList<>();
    run.forEach(seed -> outcomes.add(threads.submit(() -> new Simulation(seed, STEPS).run())));
    try {
      for (Future<Simulation.Outcome> next : outcomes) {
        Simulation.Outcome outcome = next.get();
        if (!outcome.passed() || one != null) {
          System.out.println(report(outcome));
        }
        if (!outcome.passed()) {
          failed.add("seed " + outcome.seed() + ": " + outcome.failure());
          if (!KEEP_GOING) {
            break;
          }
        }
        faults += outcome.faults();
        zombies += outcome.zombies();
        dlq += outcome.dlqRecords();
        outcome.commitModes().forEach((mode, n) -> modes.merge(mode, n, Integer::sum));
        outcome.operations().forEach((op, n) -> operations.merge(op, n, Integer::sum));
      }
    } finally {
      threads.shutdownNow();
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf(
        "sink simulation: %d schedules of %d steps in %.1f s (%.1f schedules/s): %d commit faults,"
            + " %d zombies, %d DLQ records, commits by mode %s, the lake's other writers %s, %d"
            + " seeds failed%n",
        run.size(),
        STEPS,
        seconds,
        run.size() / seconds,
        faults,
        zombies,
        dlq,
        modes,
        operations,
        failed.size());
    assertThat(failed).as("seeds that broke an invariant (schedules above)").isEmpty();
  }

  static String report(Simulation.Outcome outcome) {
    StringBuilder out = new StringBuilder();
    out.append("seed ")
        .append(outcome.seed())
        .append(outcome.passed() ? ": passed" : ": FAILED")
        .append('\n');
    if (!outcome.passed()) {
      out.append("  ").append(outcome.failure()).append('\n');
    }
    out.append("  schedule:\n");
    for (int i = 0; i < outcome.schedule().size(); i++) {
      out.append("    ").append(outcome.schedule().get(i)).append('\n');
    }
    out.append(
            "  replay: mvn -B -pl connect-plugins test -Dtest=SinkSimulationTest -Dsluice.sim.seed=")
        .append(outcome.seed())
        .append(" -Dsluice.sim.steps=")
        .append(STEPS)
        .append(" -Dsluice.sim.log=true\n");
    return out.toString();
  }
}
