package io.sluice.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.router.config.ConfigDocs;
import io.sluice.router.config.RouterConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ConfigDocsCommandTest {
  @TempDir Path dir;

  @Test
  void regeneratesTheTableBetweenTheMarkersAndLeavesTheRestAlone() throws Exception {
    Path readme = dir.resolve("README.md");
    Files.writeString(
        readme,
        "# Title\n\n"
            + ConfigDocs.START_MARKER
            + "\nstale table\n"
            + ConfigDocs.END_MARKER
            + "\n\nafter\n");

    assertThat(run("config-docs", "--check", "--readme", readme.toString())).isEqualTo(1);
    assertThat(run("config-docs", "--readme", readme.toString())).isZero();

    String text = Files.readString(readme);
    assertThat(text).startsWith("# Title\n\n" + ConfigDocs.START_MARKER).endsWith("\n\nafter\n");
    assertThat(text).doesNotContain("stale table");
    assertThat(ConfigDocs.betweenMarkers(text))
        .contains(ConfigDocs.markdownTable(RouterConfig.configDef()))
        .contains("schema.registry.url");
    assertThat(run("config-docs", "--check", "--readme", readme.toString())).isZero();
  }

  private static int run(String... args) {
    CommandLine cli = SluiceCli.commandLine();
    cli.setOut(new PrintWriter(new StringWriter(), true));
    cli.setErr(new PrintWriter(new StringWriter(), true));
    return cli.execute(args);
  }
}
