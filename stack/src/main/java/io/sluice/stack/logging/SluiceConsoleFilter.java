package io.sluice.stack.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * What a person at the console of a long-running command needs: Sluice's own lines (loggers under
 * {@code io.sluice}) and anyone's warnings and errors. Everything else is denied; a file appender
 * without this filter still gets it. A stopped filter lets everything through.
 */
public final class SluiceConsoleFilter extends Filter<ILoggingEvent> {
  /** The loggers whose lines the console keeps at every level. */
  public static final String SLUICE_LOGGERS = "io.sluice";

  @Override
  public FilterReply decide(ILoggingEvent event) {
    if (!isStarted()
        || event.getLevel().isGreaterOrEqual(Level.WARN)
        || isSluice(event.getLoggerName())) {
      return FilterReply.NEUTRAL;
    }
    return FilterReply.DENY;
  }

  private static boolean isSluice(String logger) {
    return logger.equals(SLUICE_LOGGERS) || logger.startsWith(SLUICE_LOGGERS + ".");
  }
}
