package io.sluice.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.observe.config.ConfigTable;
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
  void regeneratesEveryTableBetweenItsMarkersAndLeavesTheRestAlone() throws Exception {
    StringBuilder doc = new StringBuilder("# Title\n\n");
    for (ConfigTable table : ConfigDocsCommand.tables()) {
      doc.append(table.startMarker()).append("\nstale table\n").append(table.endMarker());
      doc.append("\n\nbetween\n\n");
    }
    Path readme = dir.resolve("README.md");
    Files.writeString(readme, doc + "after\n");

    assertThat(run("--check", "--readme", readme.toString())).isEqualTo(1);
    assertThat(run("--readme", readme.toString())).isZero();

    String text = Files.readString(readme);
    assertThat(text).startsWith("# Title\n\n").endsWith("\n\nbetween\n\nafter\n");
    assertThat(text).doesNotContain("stale table");
    for (ConfigTable table : ConfigDocsCommand.tables()) {
      assertThat(table.currentIn(text)).isEqualTo("\n" + table.markdown());
    }
    assertThat(text)
        .contains("schema.registry.url")
        .contains("database.server.id")
        .contains("table.topic.regex");
    assertThat(run("--check", "--readme", readme.toString())).isZero();
  }

  private static int run(String... args) {
    CommandLine cli = new CommandLine(new ConfigDocsCommand());
    cli.setOut(new PrintWriter(new StringWriter(), true));
    cli.setErr(new PrintWriter(new StringWriter(), true));
    return cli.execute(args);
  }
}
