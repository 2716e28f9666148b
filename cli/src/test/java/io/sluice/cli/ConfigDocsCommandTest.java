package io.sluice.cli;

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

  private final StringWriter err = new StringWriter();

  @Test
  void regeneratesEveryTableBetweenItsMarkersAndLeavesTheRestAlone() throws Exception {
    StringBuilder doc = new StringBuilder("# Title\n\n");
    for (ConfigTable table : ConfigDocsCommand.tables()) {
      doc.append(table.startMarker()).append("\nstale table\n").append(table.endMarker());
      doc.append("\n\nbetween\n\n");
    }
    Path file = Files.createDirectories(dir.resolve("docs")).resolve("configuration.md");
    Files.writeString(file, doc + "after\n");

    assertThat(run("--check", "--doc", file.toString())).isEqualTo(1);
    assertThat(run("--doc", file.toString())).isZero();

    String text = Files.readString(file);
    assertThat(text).startsWith("# Title\n\n").endsWith("\n\nbetween\n\nafter\n");
    assertThat(text).doesNotContain("stale table");
    for (ConfigTable table : ConfigDocsCommand.tables()) {
      assertThat(table.currentIn(text)).isEqualTo("\n" + table.markdown());
    }
    assertThat(text)
        .contains("schema.registry.url")
        .contains("database.server.id")
        .contains("table.topic.regex");
    assertThat(run("--check", "--doc", file.toString())).isZero();
    // The option's former name still works.
    assertThat(run("--check", "--readme", file.toString())).isZero();
  }

  @Test
  void aFileWithoutTheMarkersIsRefusedNamingWhereTheTablesLive() throws Exception {
    Path readme = dir.resolve("README.md");
    Files.writeString(readme, "# Title\n\nSee docs/configuration.md.\n");

    assertThat(run("--check", "--readme", readme.toString())).isEqualTo(2);
    assertThat(run("--readme", readme.toString())).isEqualTo(2);

    assertThat(Files.readString(readme)).isEqualTo("# Title\n\nSee docs/configuration.md.\n");
    assertThat(err.toString())
        .contains("<!-- router-config:start -->")
        .contains("the tables live in docs/configuration.md");
  }

  @Test
  void theCheckoutsConfigurationDocIsCurrentAndTheReadmeHoldsNoTable() throws Exception {
    ConfigTable router = ConfigDocsCommand.tables().get(0);
    Path doc = router.findDocument(Path.of(""), ConfigDocsCommand.DOCUMENT);

    assertThat(run("--check", "--doc", doc.toString())).isZero();
    String readme = Files.readString(doc.getParent().getParent().resolve("README.md"));
    for (ConfigTable table : ConfigDocsCommand.tables()) {
      assertThat(readme).doesNotContain(table.startMarker());
    }
    assertThat(readme).contains("docs/configuration.md#router-configuration");
  }

  @Test
  void helpNamesTheDefaultFileAndBothOptionNames() {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new ConfigDocsCommand());
    cli.setOut(new PrintWriter(out, true));

    assertThat(cli.execute("--help")).isZero();
    assertThat(out.toString()).contains("--doc, --readme=FILE").contains("docs/configuration.md");
  }

  private int run(String... args) {
    CommandLine cli = new CommandLine(new ConfigDocsCommand());
    cli.setOut(new PrintWriter(new StringWriter(), true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }
}
