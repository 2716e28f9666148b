package io.sluice.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;

/** One component of the {@link ProcessStack}: a process the supervisor starts, stops and kills. */
interface Supervised {
  /** Starts it and returns once it answers; a failed start leaves nothing running. */
  void start(Duration timeout);

  /** SIGTERM, then SIGKILL after a grace period; its exit code. */
  int stop();

  /** SIGKILL, and waits until it is gone; its exit code. */
  int kill();

  /** Its pid while it runs. */
  OptionalLong pid();

  boolean alive();

  /** Its exit code once it ended, else null. */
  Integer exitCode();

  Path log();
}
