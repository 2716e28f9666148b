package io.sluice.stack.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.util.FileSize;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The log of a long-running command such as {@code sluice up}: every line the logging configuration
 * lets through goes to a rolling file, and the console keeps only Sluice's own lines and anyone's
 * warnings and errors ({@link SluiceConsoleFilter}), unless verbose. Lines of {@code
 * java.util.logging} (Debezium's binlog client writes them) go the same way instead of straight to
 * stderr.
 */
public final class CommandLog implements AutoCloseable {
  /** Size at which the file rolls over; {@link #KEPT_ROLLED_FILES} rolled files are kept. */
  public static final String MAX_FILE_SIZE = "20MB";

  public static final int KEPT_ROLLED_FILES = 3;

  private static final String PATTERN = "%d{ISO8601} %-5level [%thread] %logger - %msg%n";

  private final LoggerContext context;
  private final Path file;
  private final RollingFileAppender<ILoggingEvent> appender;
  private final List<SluiceConsoleFilter> filters;

  private CommandLog(
      LoggerContext context,
      Path file,
      RollingFileAppender<ILoggingEvent> appender,
      List<SluiceConsoleFilter> filters) {
    this.context = context;
    this.file = file;
    this.appender = appender;
    this.filters = filters;
  }

  /**
   * Adds {@code file} (appended to, rolled over at {@link #MAX_FILE_SIZE} as {@code <name>.1.log}
   * and so on) to the root logger and, unless {@code verbose}, quiets every console appender of the
   * root logger. Without Logback as the SLF4J binding it changes nothing but the JUL bridge.
   *
   * @param file the log file, e.g. {@code <data dir>/logs/sluice-up.log}; its folder is created
   * @param verbose true to leave the console as the configuration has it
   */
  public static CommandLog open(Path file, boolean verbose) {
    bridgeJavaUtilLogging();
    Path absolute = file.toAbsolutePath();
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return new CommandLog(null, absolute, null, List.of());
    }
    try {
      Files.createDirectories(absolute.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the log folder " + absolute.getParent(), e);
    }
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    List<SluiceConsoleFilter> filters = verbose ? List.of() : quietConsoles(context, root);
    RollingFileAppender<ILoggingEvent> appender = rollingFile(context, absolute);
    root.addAppender(appender);
    return new CommandLog(context, absolute, appender, filters);
  }

  /** Sends {@code java.util.logging} records to SLF4J instead of JUL's stderr handler. */
  static void bridgeJavaUtilLogging() {
    if (!SLF4JBridgeHandler.isInstalled()) {
      SLF4JBridgeHandler.removeHandlersForRootLogger();
      SLF4JBridgeHandler.install();
    }
  }

  /** The log file, absolute. */
  public Path file() {
    return file;
  }

  /** Detaches the file and lifts the console filters. */
  @Override
  public void close() {
    filters.forEach(SluiceConsoleFilter::stop);
    if (appender != null) {
      context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).detachAppender(appender);
      appender.stop();
    }
  }

  private static List<SluiceConsoleFilter> quietConsoles(LoggerContext context, Logger root) {
    List<SluiceConsoleFilter> filters = new ArrayList<>();
    for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
      if (it.next() instanceof ConsoleAppender<ILoggingEvent> console) {
        SluiceConsoleFilter filter = new SluiceConsoleFilter();
        filter.setContext(context);
        filter.start();
        console.addFilter(filter);
        filters.add(filter);
      }
    }
    return filters;
  }

  private static RollingFileAppender<ILoggingEvent> rollingFile(LoggerContext context, Path file) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();

    RollingFileAppender<ILoggingEvent> appender = new RollingFileAppender<>();
    appender.setContext(context);
    appender.setName("command-log");
    appender.setFile(file.toString());
    appender.setAppend(true);
    appender.setEncoder(encoder);

    String name = file.getFileName().toString();
    String stem = name.endsWith(".log") ? name.substring(0, name.length() - 4) : name;
    FixedWindowRollingPolicy rolling = new FixedWindowRollingPolicy();
    rolling.setContext(context);
    rolling.setParent(appender);
    rolling.setFileNamePattern(file.resolveSibling(stem + ".%i.log").toString());
    rolling.setMinIndex(1);
    rolling.setMaxIndex(KEPT_ROLLED_FILES);
    rolling.start();

    SizeBasedTriggeringPolicy<ILoggingEvent> trigger = new SizeBasedTriggeringPolicy<>();
    trigger.setContext(context);
    trigger.setMaxFileSize(FileSize.valueOf(MAX_FILE_SIZE));
    trigger.start();

    appender.setRollingPolicy(rolling);
    appender.setTriggeringPolicy(trigger);
    appender.start();
    if (!appender.isStarted()) {
      throw new IllegalStateException("cannot write the log file " + file);
    }
    return appender;
  }
}
