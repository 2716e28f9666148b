package io.sluice.connect.upsert.sim;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.sluice.connect.upsert.index.KeyIndexes;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The sink's warnings that a table's key index passed its limits ({@link KeyIndexes} gives the
 * index up and the table goes by equality deletes), heard whether or not the run logs: the key
 * index keeps no meter the simulation can read (the meters record nothing without an endpoint).
 */
final class KeyIndexWarnings extends AppenderBase<ILoggingEvent> {
  /** One index given up: its table, keys and bytes when it was. */
  record GivenUp(String table, long keys, long bytes) {}

  private static final Logger LOGGER = (Logger) LoggerFactory.getLogger(KeyIndexes.class);
  // Schedules run side by side: the first to listen enables the warnings, the last restores.
  private static int listening;
  private static Level saved;

  private final List<GivenUp> heard = new ArrayList<>();
  // The sink of a schedule runs on its schedule's thread only: other schedules' warnings are not
  // this one's.
  private final String thread = Thread.currentThread().getName();

  @Override
  public void start() {
    synchronized (KeyIndexWarnings.class) {
      if (listening++ == 0) {
        saved = LOGGER.getLevel();
        if (!LOGGER.isEnabledFor(Level.WARN)) {
          LOGGER.setLevel(Level.WARN);
        }
      }
    }
    LOGGER.addAppender(this);
    super.start();
  }

  @Override
  public void stop() {
    super.stop();
    LOGGER.detachAppender(this);
    synchronized (KeyIndexWarnings.class) {
      if (--listening == 0) {
        LOGGER.setLevel(saved);
      }
    }
  }

  @Override
  protected synchronized void append(ILoggingEvent event) {
    Object[] args = event.getArgumentArray();
    if (event.getLevel() == Level.WARN
        && thread.equals(event.getThreadName())
        && event.getMessage().startsWith("The key index of")
        && args != null
        && args.length >= 3
        && args[1] instanceof Number) {
      // Not a spill file that could not be made ("could not map a spill file, {}"): a limit.
      heard.add(
          new GivenUp(
              String.valueOf(args[0]),
              ((Number) args[1]).longValue(),
              ((Number) args[2]).longValue()));
    }
  }

  synchronized List<GivenUp> drain() {
    List<GivenUp> out = List.copyOf(heard);
    heard.clear();
    return out;
  }
}
