package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.ContextInitializer;
import io.sluice.stack.cli.UpCommand;
import io.sluice.stack.logging.CommandLog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Handler;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The console and the log file of {@code sluice up}: the CLI's own logback.xml with {@link
 * CommandLog} on top, as {@link UpCommand} opens it.
 */
class UpLoggingTest {
  private static final String SLUICE = "io.sluice.stack.EmbeddedStack";
  // Debezium dumps its whole connector configuration at INFO under this name.
  private static final String THIRD_PARTY = "io.debezium.connector.common.BaseSourceTask";
  // Below the level logback.xml gives org.apache.kafka: in neither place.
  private static final String KAFKA_CONFIG = "org.apache.kafka.clients.consumer.ConsumerConfig";
  private static final String KAFKA_CONTROLLER = "org.apache.kafka.controller.QuorumController";
  private static final String JUL_LOGGER = "com.github.shyiko.mysql.binlog.BinaryLogClient";

  @TempDir Path dataDir;

  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final ByteArrayOutputStream console = new ByteArrayOutputStream();
  private final java.util.logging.Logger julRoot = java.util.logging.Logger.getLogger("");
  private PrintStream stderr;
  private Handler[] julHandlers;
  private CommandLog commandLog;

  @BeforeEach
  void useTheCliLoggingConfiguration() throws Exception {
    julHandlers = julRoot.getHandlers();
    stderr = System.err;
    // Logback's console appender writes to whatever System.err is at the time.
    System.setErr(new PrintStream(console, true, StandardCharsets.UTF_8));
    URL config = SluiceCli.class.getResource("/logback.xml");
    assertThat(config).as("the CLI's logback.xml").isNotNull();
    context.reset();
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    configurator.doConfigure(config);
  }

  @AfterEach
  void restoreLogging() throws Exception {
    if (commandLog != null) {
      commandLog.close();
    }
    System.setErr(stderr);
    SLF4JBridgeHandler.uninstall();
    for (Handler handler : julHandlers) {
      julRoot.addHandler(handler);
    }
    context.reset();
    new ContextInitializer(context).autoConfig();
  }

  @Test
  void consoleKeepsSluiceLinesAndWarningsWhileTheFileGetsEveryLine() throws Exception {
    commandLog = CommandLog.open(dataDir.resolve(UpCommand.LOG_FILE), false);

    logAtEveryKindOfLogger();

    assertThat(commandLog.file()).isEqualTo(dataDir.resolve("logs/sluice-up.log"));
    assertThat(console())
        .contains("Starting the Sluice embedded stack", "Performing controller activation")
        .doesNotContain(
            "Starting MariaDbConnectorTask with configuration", "ConsumerConfig values");
    assertThat(logFile())
        .containsPattern(line("INFO", SLUICE, "Starting the Sluice embedded stack"))
        .containsPattern(
            line("INFO", THIRD_PARTY, "Starting MariaDbConnectorTask with configuration"))
        .containsPattern(line("WARN", KAFKA_CONTROLLER, "Performing controller activation"))
        .doesNotContain("ConsumerConfig values");
  }

  @Test
  void javaUtilLoggingRecordsLandInTheFileAndNotRawOnStderr() throws Exception {
    commandLog = CommandLog.open(dataDir.resolve(UpCommand.LOG_FILE), false);

    java.util.logging.Logger.getLogger(JUL_LOGGER).info("Enabling GTID");
    java.util.logging.Logger.getLogger(JUL_LOGGER).warning("Binlog reader lost its connection");

    assertThat(julRoot.getHandlers())
        .as("JUL's own stderr handler is gone")
        .isNotEmpty()
        .allMatch(h -> h instanceof SLF4JBridgeHandler);
    assertThat(logFile())
        .containsPattern(line("INFO", JUL_LOGGER, "Enabling GTID"))
        .containsPattern(line("WARN", JUL_LOGGER, "Binlog reader lost its connection"));
    assertThat(console())
        .contains("BinaryLogClient - Binlog reader lost its connection")
        .doesNotContain("Enabling GTID");
  }

  @Test
  void verboseShowsEveryLineOnTheConsoleAsWell() throws Exception {
    commandLog = CommandLog.open(dataDir.resolve(UpCommand.LOG_FILE), true);

    logAtEveryKindOfLogger();

    assertThat(console())
        .contains(
            "Starting the Sluice embedded stack",
            "Starting MariaDbConnectorTask with configuration",
            "Performing controller activation")
        .doesNotContain("ConsumerConfig values");
    assertThat(logFile()).contains("Starting MariaDbConnectorTask with configuration");
  }

  @Test
  void closingDetachesTheFileAndGivesTheConsoleBackWhole() throws Exception {
    CommandLog closed = CommandLog.open(dataDir.resolve(UpCommand.LOG_FILE), false);
    closed.close();

    LoggerFactory.getLogger(THIRD_PARTY).info("after close");

    assertThat(console()).contains("after close");
    assertThat(logFile()).doesNotContain("after close");
  }

  private static void logAtEveryKindOfLogger() {
    Logger sluice = LoggerFactory.getLogger(SLUICE);
    sluice.info("Starting the Sluice embedded stack in {}", "/tmp/x/.sluice/data");
    LoggerFactory.getLogger(THIRD_PARTY)
        .info("Starting MariaDbConnectorTask with configuration:\n   database.port = 3306");
    LoggerFactory.getLogger(KAFKA_CONFIG).info("ConsumerConfig values: {}", List.of("a"));
    LoggerFactory.getLogger(KAFKA_CONTROLLER).warn("Performing controller activation.");
  }

  /** A line of the file's pattern: level, [thread], the whole logger name, the message. */
  private static String line(String level, String logger, String message) {
    return Pattern.quote(level) + " +\\[[^]]+\\] " + Pattern.quote(logger + " - " + message);
  }

  private String console() {
    return console.toString(StandardCharsets.UTF_8);
  }

  private String logFile() throws Exception {
    return Files.readString(dataDir.resolve("logs/sluice-up.log"));
  }
}
