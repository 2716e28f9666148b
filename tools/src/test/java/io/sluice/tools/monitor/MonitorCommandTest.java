package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MonitorCommandTest {
  @TempDir Path dir;

  @Test
  void helpNamesEveryOptionAndTheMetrics() {
    Run run = run("--help");

    assertThat(run.exit).isZero();
    assertThat(run.out)
        .startsWith("Usage: monitor")
        .contains(
            "--bootstrap-servers",
            "--ready-file",
            "--dlq-topic-pattern",
            "--group-pattern",
            "--interval",
            "--metrics-host",
            "--metrics-port")
        .contains("sluice_dlq_backlog_records", "sluice_consumer_group_lag_records");
  }

  @Test
  void withoutBrokerAndReadyFileItSaysHowToGetOne() {
    Run run = run("--ready-file", dir.resolve("none.json").toString());

    assertThat(run.exit).isEqualTo(2);
    assertThat(run.err)
        .contains("no --bootstrap-servers given and there is no ready file at")
        .contains("scripts/sluice up");
  }

  @Test
  void theBrokerComesFromTheReadyFileAndTheOptionsBecomeTheSettings() throws Exception {
    Path ready = dir.resolve("ready.json");
    Files.writeString(ready, "{\"bootstrap_servers\": \"127.0.0.1:41234\"}");
    MonitorCommand command = new MonitorCommand();
    new CommandLine(command)
        .parseArgs(
            "--ready-file",
            ready.toString(),
            "--interval",
            "0.5",
            "--group-pattern",
            "connect-.*",
            "--metrics-port",
            "9410");

    MonitorSettings settings = command.settings();

    assertThat(settings.bootstrapServers()).isEqualTo("127.0.0.1:41234");
    assertThat(settings.refreshInterval()).isEqualTo(Duration.ofMillis(500));
    assertThat(settings.groupPattern().pattern()).isEqualTo("connect-.*");
    assertThat(settings.dlqTopicPattern().pattern()).isEqualTo(".+\\.dlq");
    assertThat(settings.metricsPort()).isEqualTo(9410);
  }

  @Test
  void aBadPatternOrIntervalIsAUsageErrorNamingTheOption() {
    Run pattern = run("--bootstrap-servers", "127.0.0.1:1", "--dlq-topic-pattern", "(");
    assertThat(pattern.exit).isEqualTo(2);
    assertThat(pattern.err)
        .contains("--dlq-topic-pattern: dlqTopicPattern is not a valid Java regex: '('");

    Run interval = run("--bootstrap-servers", "127.0.0.1:1", "--interval", "0.01");
    assertThat(interval.exit).isEqualTo(2);
    assertThat(interval.err).contains("--interval must be between 0.1 and 86400 seconds, got 0.01");
  }

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new MonitorCommand());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    cli.setUsageHelpWidth(200);
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }
}
