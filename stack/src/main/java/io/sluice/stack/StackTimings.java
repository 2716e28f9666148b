package io.sluice.stack;

import java.time.Duration;

/** The stack's clocks: how often its sinks commit, see new topics, and the monitor refreshes. */
public final class StackTimings {
  /** How often both sinks commit to Iceberg. */
  public static final long SINK_COMMIT_INTERVAL_MS = 2_000;

  /**
   * How soon both sinks see a clean topic created while they run: the Connect worker's {@code
   * consumer.metadata.max.age.ms} ({@code SinkWorkerProperties}; compose's worker has the same).
   */
  public static final long SINK_TOPIC_REFRESH_MS = 5_000;

  /**
   * How often the monitor re-reads the DLQ topics, their ledgers, the groups' offsets and the
   * Iceberg tables' metadata.
   */
  public static final Duration MONITOR_REFRESH = Duration.ofSeconds(1);

  private StackTimings() {}
}
