package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contract.TopicNames;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
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
            "--clean-suffix",
            "--dlq-suffix",
            "--dlq-topic-pattern",
            "--group-pattern",
            "--interval",
            "--metrics-host",
            "--metrics-port",
            "--catalog",
            "--iceberg-table",
            "--iceberg-interval",
            "--no-iceberg")
        .contains("sluice_dlq_backlog_records", "sluice_consumer_group_lag_records")
        .contains(
            "sluice_iceberg_table_commits_total{operation}",
            "sluice_iceberg_table_equality_deletes",
            "sluice_iceberg_table_load_failures_total");
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

  @Test
  void theDlqSuffixComesFromTheReadyFileUnlessAFlagGivesIt() throws Exception {
    Path ready = dir.resolve("ready.json");
    Files.writeString(
        ready,
        "{\"bootstrap_servers\": \"127.0.0.1:41234\", \"topics\": {\"clean_suffix\": \".clean\","
            + " \"dlq_suffix\": \".quarantine\", \"repairs_suffix\": \".repairs\"}}");

    MonitorSettings fromFile = settings("--ready-file", ready.toString(), "--no-iceberg");
    assertThat(fromFile.topicNames()).isEqualTo(TopicNames.of(".clean", ".quarantine"));
    assertThat(fromFile.dlqTopicPattern().pattern()).isEqualTo(".+\\.quarantine");

    MonitorSettings flag =
        settings("--ready-file", ready.toString(), "--no-iceberg", "--dlq-suffix", ".dead");
    assertThat(flag.topicNames()).isEqualTo(TopicNames.of(".clean", ".dead"));
    assertThat(flag.dlqTopicPattern().pattern()).isEqualTo(".+\\.dead");

    MonitorSettings pattern =
        settings("--ready-file", ready.toString(), "--no-iceberg", "--dlq-topic-pattern", "a\\..+");
    assertThat(pattern.topicNames()).isEqualTo(fromFile.topicNames());
    assertThat(pattern.dlqTopicPattern().pattern()).isEqualTo("a\\..+");

    MonitorSettings noFile =
        settings("--bootstrap-servers", "127.0.0.1:1", "--ready-file", dir.resolve("x").toString());
    assertThat(noFile.topicNames()).isEqualTo(TopicNames.DEFAULTS);
  }

  @Test
  void aBadSuffixIsAUsageErrorNamingTheFlagOrTheReadyFileField() throws Exception {
    Run flag = run("--bootstrap-servers", "127.0.0.1:1", "--dlq-suffix", ".clean");
    assertThat(flag.exit).isEqualTo(2);
    assertThat(flag.err)
        .contains(
            "--dlq-suffix: '.clean' must differ from the default clean_suffix ('.clean'): a topic"
                + " would have both roles");

    Path ready = dir.resolve("ready.json");
    Files.writeString(
        ready, "{\"bootstrap_servers\": \"h:1\", \"topics\": {\"dlq_suffix\": \"\"}}");
    Run file = run("--ready-file", ready.toString());
    assertThat(file.exit).isEqualTo(2);
    assertThat(file.err)
        .contains(
            "ready file " + ready.toAbsolutePath() + ": topics.dlq_suffix: '' must not be empty");
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

  @Test
  void theReadyFilesIcebergCatalogTurnsTheIcebergPartOn() throws Exception {
    Path ready = dir.resolve("ready.json");
    Files.writeString(
        ready,
        "{\"bootstrap_servers\": \"127.0.0.1:41234\", \"iceberg_catalog\": {\"name\": \"sluice\","
            + " \"type\": \"jdbc\", \"uri\": \"jdbc:sqlite:/data/catalog.db\","
            + " \"jdbc.schema-version\": \"V1\", \"warehouse\": \"file:/data/warehouse\"}}");

    MonitorSettings settings =
        settings("--ready-file", ready.toString(), "--iceberg-interval", "1.5");

    assertThat(settings.iceberg().catalog())
        .containsExactly(
            Map.entry("name", "sluice"),
            Map.entry("type", "jdbc"),
            Map.entry("uri", "jdbc:sqlite:/data/catalog.db"),
            Map.entry("jdbc.schema-version", "V1"),
            Map.entry("warehouse", "file:/data/warehouse"));
    assertThat(settings.iceberg().tables()).isEmpty();
    assertThat(settings.iceberg().refreshInterval()).isEqualTo(Duration.ofMillis(1500));

    MonitorSettings off = settings("--ready-file", ready.toString(), "--no-iceberg");
    assertThat(off.iceberg().enabled()).isFalse();
    assertThat(off.bootstrapServers()).isEqualTo("127.0.0.1:41234");
  }

  @Test
  void catalogFlagsReplaceTheReadyFilesCatalogAndTablesNarrowIt() throws Exception {
    Path ready = dir.resolve("ready.json");
    Files.writeString(
        ready, "{\"iceberg_catalog\": {\"type\": \"jdbc\", \"uri\": \"jdbc:sqlite:x.db\"}}");

    MonitorSettings settings =
        settings(
            "--ready-file",
            ready.toString(),
            "--bootstrap-servers",
            "kafka:19092",
            "--catalog",
            "name=sluice",
            "--catalog",
            "type=rest",
            "--catalog",
            "uri=http://iceberg-rest:8181",
            "--iceberg-table",
            "cdc_lab.orders_changelog",
            "--iceberg-table",
            "other");

    assertThat(settings.iceberg().catalog())
        .containsExactly(
            Map.entry("name", "sluice"),
            Map.entry("type", "rest"),
            Map.entry("uri", "http://iceberg-rest:8181"));
    assertThat(settings.iceberg().tables()).containsExactly("cdc_lab.orders_changelog", "other");
    assertThat(settings.iceberg().refreshInterval()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void aCatalogWithoutTypeOrContradictingFlagsAreUsageErrors() {
    Run untyped =
        run("--bootstrap-servers", "127.0.0.1:1", "--catalog", "uri=http://iceberg-rest:8181");
    assertThat(untyped.exit).isEqualTo(2);
    assertThat(untyped.err)
        .contains("--catalog: icebergCatalog must name its type (type=jdbc|rest|...)");

    Run both = run("--bootstrap-servers", "127.0.0.1:1", "--catalog", "type=rest", "--no-iceberg");
    assertThat(both.exit).isEqualTo(2);
    assertThat(both.err).contains("--no-iceberg and --catalog contradict each other");

    Run interval = run("--bootstrap-servers", "127.0.0.1:1", "--iceberg-interval", "0");
    assertThat(interval.exit).isEqualTo(2);
    assertThat(interval.err)
        .contains("--iceberg-interval must be between 0.1 and 86400 seconds, got 0.0");
  }

  private static MonitorSettings settings(String... args) {
    MonitorCommand command = new MonitorCommand();
    new CommandLine(command).parseArgs(args);
    return command.settings();
  }
}
