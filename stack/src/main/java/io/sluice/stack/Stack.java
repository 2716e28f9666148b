package io.sluice.stack;

import java.util.Map;

/**
 * A running Sluice stack, in one JVM ({@link EmbeddedStack}) or as supervised processes ({@link
 * ProcessStack}): its names and its endpoints. What drives a stack (the scenarios, the benchmarks,
 * {@code sluice up}) needs no more than this.
 */
public interface Stack extends AutoCloseable {
  /**
   * Starts the stack {@code options} describe: the process stack when {@code processes}, else the
   * one-JVM stack. Returns once every component answers; a stack that does not start has stopped
   * whatever had started when this throws.
   */
  static Stack start(StackOptions options, boolean processes) {
    return processes ? new ProcessStack(options).start() : new EmbeddedStack(options).start();
  }

  /** Every name the stack runs with. */
  StackLayout layout();

  /** The ready file's object ({@code sluice up --ready-file}). */
  Map<String, Object> endpoints();

  String bootstrapServers();

  String schemaRegistryUrl();

  String jdbcUrl();

  String captureAdminUrl();

  String connectUrl();

  String routerMetricsUrl();

  String routerHealthUrl();

  String monitorMetricsUrl();

  StackPorts ports();

  /** Stops every component; the data dir stays. */
  @Override
  void close();
}
